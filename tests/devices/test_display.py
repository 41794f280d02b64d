"""TableDisplay on luma devices: drawing, I2C failures with recovery, the GIF and terminal views."""

from __future__ import annotations

import io
import itertools
import logging

import luma.core.error
import pytest
from luma.core.device import dummy
from PIL import Image

from coyote_pi.devices.display import TableDisplay, open_luma_device
from coyote_pi.devices.errors import DeviceConfigError
from coyote_pi.devices.outputs import (
    GifRecorder,
    TerminalView,
    braille_lines,
    fit_lines,
    halfblock_lines,
    smallest_size,
)
from coyote_pi.devices.render import ScreenRenderer
from coyote_pi.devices.screen import Screen, SeatStatus
from coyote_pi.sim.clock import SimClock, SimScheduler
from coyote_pi.sim.display import FlakyDummy

FAST_RETRY = (0.02, 0.04)
SCREENS = [Screen(title=f"Seat {n} bids", big=str(10 + n), seats=[SeatStatus(s, 2, 1, is_turn=s == n) for s in range(1, 5)]) for n in range(1, 5)]


def rendered(screen: Screen, size=(128, 64)) -> bytes:
    return ScreenRenderer(size).render(screen).tobytes()


def test_show_puts_the_rendered_screen_on_the_device():
    with TableDisplay(dummy(width=128, height=64, mode="1")) as display:
        assert display.show(SCREENS[0])
        assert display.device.image.tobytes() == rendered(SCREENS[0])
        assert display.healthy


def test_rotated_panel_draws_in_its_logical_size():
    device = dummy(width=128, height=64, rotate=1, mode="1")
    with TableDisplay(device) as display:
        assert display.size == (64, 128)
        assert display.show(SCREENS[1])
        assert device.image.size == (128, 64)  # luma turned it for the panel


# luma.oled's drivers still call Image.getdata, deprecated since Pillow 12: their warning, not ours.
@pytest.mark.filterwarnings("ignore:Image.Image.getdata is deprecated:DeprecationWarning")
@pytest.mark.parametrize(
    ("driver", "size", "mode"),
    [("ssd1306", (128, 64), "1"), ("sh1106", (128, 64), "1"), ("ssd1309", (128, 64), "1"), ("ssd1322", (256, 64), "RGB")],
)
def test_real_luma_drivers_open_through_luma_options(driver, size, mode):
    """The real driver code runs; only the bus is luma's no-op interface."""
    device = open_luma_device(driver, interface="noop", width=size[0], height=size[1])
    assert (device.mode, device.size) == (mode, size)
    with TableDisplay(device) as display:
        assert display.show(SCREENS[2])


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"driver": "ssd9999"}, "invalid choice: 'ssd9999'"),
        ({"driver": "ssd1306", "interface": "usb"}, "invalid choice: 'usb'"),
        ({"driver": "ssd1306", "luma_args": ["--colour", "red"]}, "does not know the option(s) --colour red"),
        ({"driver": "ssd1306", "interface": "noop", "width": 100}, "ssd1306 cannot do 100x64"),
    ],
)
def test_bad_display_settings_are_config_errors(kwargs, message):
    with pytest.raises(DeviceConfigError) as caught:
        open_luma_device(**kwargs)
    assert message in str(caught.value)


class SimTime:
    """The display's retries on a simulated clock: they run when the test moves time on,
    never on a thread racing the test's assertions (a slow CPU, e.g. a Pi Zero 2 W
    or qemu, changes nothing)."""

    def __init__(self) -> None:
        self.clock = SimClock()
        self.timers = SimScheduler(self.clock)

    def display(self, device, **options) -> TableDisplay:
        return TableDisplay(device, retry_delays=FAST_RETRY, clock=self.clock, scheduler=self.timers, **options)

    def run_retries(self, display: TableDisplay, limit: float = 5.0) -> bool:
        """Move the clock from retry to retry until the newest screen is shown (or ``limit`` simulated s)."""
        while not display.healthy and (due := self.timers.next_due()) is not None and due <= limit:
            self.clock.advance_to(due)
            self.timers.run_due()
        return display.healthy


def test_i2c_errors_mid_game_are_retried_and_the_newest_screen_wins(caplog):
    device = FlakyDummy({3, 4, 5})  # the 3rd, 4th and 5th writes hit a glitching bus
    time = SimTime()
    with time.display(device) as display, caplog.at_level(logging.INFO):
        assert display.show(SCREENS[0]) and display.show(SCREENS[1])
        assert not display.show(SCREENS[2])  # call 3 fails: no exception, the game goes on
        assert not display.healthy and "Remote I/O error" in display.last_error
        assert device.image.tobytes() == rendered(SCREENS[1])  # the panel keeps the last good frame
        time.clock.advance_to(FAST_RETRY[0] / 2)
        time.timers.run_due()
        assert not display.show(SCREENS[3])  # in backoff: queued for the retry, no bus traffic now
        assert device.calls == 3
        assert time.run_retries(display)  # retries 4 and 5 fail, 6 succeeds
        assert device.calls == 6
        assert time.clock() == FAST_RETRY[0] + 2 * FAST_RETRY[1]  # the backoff's delays, the last one repeated
        assert device.image.tobytes() == rendered(SCREENS[3])
    assert device.calls == 7  # closing blanks the panel
    assert display.last_error is None
    logged = [(record.levelno, record.getMessage()) for record in caplog.records]
    warnings = [text for level, text in logged if level == logging.WARNING]
    assert len(warnings) == 1 and "display write failed" in warnings[0]  # the outage is logged once
    assert (logging.INFO, "display is back after 3 failed attempt(s)") in logged


def test_luma_device_not_found_is_survived_too():
    device = FlakyDummy(lambda call: call == 2, error=lambda: luma.core.error.DeviceNotFoundError("I2C device not found"))
    time = SimTime()
    with time.display(device) as display:
        display.show(SCREENS[0])
        assert not display.show(SCREENS[1])
        assert time.run_retries(display)
        assert device.image.tobytes() == rendered(SCREENS[1])


def test_a_panel_absent_at_start_is_opened_when_it_answers():
    attempts = itertools.count(1)
    panel = dummy(width=128, height=64, mode="1")

    def open_panel():
        if next(attempts) <= 2:
            raise OSError(121, "Remote I/O error")
        return panel

    time = SimTime()
    with time.display(open_panel, size=(128, 64)) as display:
        assert display.device is None
        assert not display.show(SCREENS[0])
        assert time.run_retries(display)
        assert next(attempts) == 4  # opened on the third attempt, after two retries
        assert display.device is panel and panel.image.tobytes() == rendered(SCREENS[0])


def test_a_function_needs_the_size():
    with pytest.raises(ValueError, match="size"):
        TableDisplay(lambda: dummy(), retry_delays=FAST_RETRY)


def test_closing_stops_the_retries():
    device = FlakyDummy(lambda call: True)
    time = SimTime()
    display = time.display(device)
    display.show(SCREENS[0])
    display.close()
    calls = device.calls
    assert not display.show(SCREENS[1])
    assert not time.run_retries(display)  # the pending retry was cancelled: nothing is due
    assert device.calls == calls


def test_gif_recorder_writes_every_distinct_frame_with_its_duration(tmp_path):
    """Also with Raspberry Pi OS Bookworm's Pillow 9.4 (``make test-pi-os``), whose GIF
    writer once failed on the frames after the first."""
    times = iter([0.0, 0.5, 0.5, 1.5, 30.0, 30.01])
    shown = [SCREENS[0], SCREENS[1], SCREENS[1], SCREENS[2], SCREENS[3], SCREENS[0]]
    gif = GifRecorder(tmp_path / "out" / "oled.gif", scale=2, min_frame_seconds=0.1, max_frame_seconds=5.0)
    with TableDisplay(dummy(width=128, height=64, mode="1"), outputs=[gif], clock=lambda: next(times)) as display:
        for screen in shown:
            display.show(screen)  # the repeated SCREENS[1] only extends its frame
        assert len(gif) == 5
    durations, pictures = [], []
    with Image.open(tmp_path / "out" / "oled.gif") as animation:
        assert animation.is_animated and animation.n_frames == 5
        assert animation.size == (256, 128)
        for index in range(animation.n_frames):
            animation.seek(index)
            durations.append(animation.info["duration"])
            # Lit pixels white, dark ones black, each OLED pixel a 2x2 block.
            picture = animation.convert("L").point(lambda value: 255 if value > 127 else 0).convert("1")
            pictures.append(picture.resize((128, 64), Image.NEAREST).tobytes())
    assert durations == [500, 1000, 5000, 100, 2000]  # gaps, clamped to [0.1 s, 5 s]; the last lasts 2 s
    assert pictures == [rendered(screen) for screen in [SCREENS[0], SCREENS[1], SCREENS[2], SCREENS[3], SCREENS[0]]]


def test_gif_recorder_without_frames_writes_nothing(tmp_path):
    gif = GifRecorder(tmp_path / "none.gif")
    assert gif.save() is None
    assert not (tmp_path / "none.gif").exists()


def test_halfblocks_pair_two_pixel_rows_per_character():
    image = Image.new("1", (4, 3))
    for xy in [(1, 0), (2, 1), (3, 0), (3, 1), (0, 2)]:
        image.putpixel(xy, 1)
    assert halfblock_lines(image) == [" ▀▄█", "▀   "]


def test_terminal_view_is_a_boxed_128_by_32_character_picture():
    stream = io.StringIO()
    view = TerminalView(stream, clear=False)
    with TableDisplay(dummy(width=128, height=64, mode="1"), outputs=[view]) as display:
        display.show(SCREENS[0])
    rows = stream.getvalue().splitlines()
    assert len(rows) == 32 + 2
    assert {len(row) for row in rows} == {128 + 2}
    assert rows[0].startswith("┌") and rows[-1].endswith("┘")
    assert any(set(row[1:-1]) - {" "} for row in rows[1:-1])


def test_braille_keeps_every_pixel_in_2x4_cells():
    image = Image.new("1", (4, 5))
    for xy in [(0, 0), (1, 3), (2, 1), (3, 2), (0, 4)]:
        image.putpixel(xy, 1)
    assert braille_lines(image) == [chr(0x2800 + 0x01 + 0x80) + chr(0x2800 + 0x02 + 0x20), chr(0x2800 + 0x01) + "⠀"]


@pytest.mark.parametrize("room,size,marks", [
    ((128, 32), (128, 32), ["▄"]),  # 1:1 half blocks; pixel row 7 is the lower half of text row 3
    ((300, 70), (256, 64), ["█", "█"]),  # twice as large: the pixel is 2 wide and a whole row high
    ((78, 22), (64, 16), [chr(0x2800 + 0x80)]),  # Braille: dot 8 (left column, 4th row) of cell (2, 1)
    ((127, 40), (64, 16), [chr(0x2800 + 0x80)]),
    ((63, 40), None, None),  # too small for every pixel: nothing drawn
])
def test_the_oled_is_drawn_as_large_as_the_room_allows_without_losing_a_pixel(room, size, marks):
    image = Image.new("1", (128, 64))
    image.putpixel((5, 7), 1)
    lines = fit_lines(image, *room)
    if size is None:
        assert lines is None and smallest_size(image.size) == (64, 16)
        return
    assert (len(lines[0]), len(lines)) == size and {len(line) for line in lines} == {size[0]}
    assert [c for line in lines for c in line if c not in " ⠀"] == marks


def test_terminal_view_fits_its_terminal_or_says_what_size_it_needs():
    image = Image.new("1", (128, 64), 1)
    small = TerminalView(io.StringIO(), clear=False, size=(80, 24)).text(image).splitlines()
    assert (len(small), {len(row) for row in small}) == (18, {66})  # Braille, framed
    tiny = TerminalView(io.StringIO(), clear=False, size=(60, 20)).text(image)
    assert tiny == "The terminal is too small for the OLED: make it at least 66x18.\n"


def test_terminal_view_redraws_in_place_when_asked():
    stream = io.StringIO()
    view = TerminalView(stream, clear=True)
    view.frame(Image.new("1", (128, 64)), 0.0)
    view.frame(Image.new("1", (128, 64)), 1.0)
    assert stream.getvalue().count("\x1b[H\x1b[2J") == 2
