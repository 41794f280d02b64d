"""The simulated table's parts, built from the device configuration and handed to the factory."""

from __future__ import annotations

import dataclasses
import io
import json
import queue
import threading
import time
from pathlib import Path

import pytest

from coyote_pi.config import load_config
from coyote_pi.devices.buttons import TableButtons
from coyote_pi.devices.config import PRESETS, DevicesConfig
from coyote_pi.devices.errors import DeviceConfigError
from coyote_pi.devices.events import PRESS
from coyote_pi.devices.factory import make_devices
from coyote_pi.devices.outputs import GifRecorder, TerminalView
from coyote_pi.devices.screen import Screen
from coyote_pi.sim.camera import FailingCamera, SyntheticCamera
from coyote_pi.sim.display import FlakyDummy
from coyote_pi.sim.presser import Bounce, SimulatedPresser
from coyote_pi.sim.rig import NextGame, simulated_parts
from coyote_pi.sim.table import SimPace, SimTable
from coyote_pi.table import stages
from coyote_pi.table.presenter import Prompt


def test_sim_devices_work_together(tmp_path):
    """The simulated table end to end: a press arrives, a screen is drawn, a frame is taken."""
    config = DevicesConfig.from_mapping({
        "display": {"driver": "dummy", "gif": str(tmp_path / "oled.gif")},
        "buttons": {"backend": "mock"},
        "camera": {"backend": "failing", "fault": "garbage", "width": 64, "height": 48},
    }, preset="sim")
    events = queue.Queue()
    with make_devices(config, events, parts=simulated_parts(config)) as devices:
        assert isinstance(devices.buttons, TableButtons)
        SimulatedPresser(devices.pin_factory, devices.pinmap).tap(2, "ok")
        event = events.get(timeout=5)
        assert (event.seat, event.button, event.kind) == (2, "ok", PRESS)
        assert devices.display.show(Screen(big="Hallo"))
        assert devices.display.device.image.getbbox() is not None
        frame = devices.camera.capture()
        assert frame.shape == (48, 64, 3) and isinstance(devices.camera, FailingCamera)
    assert (tmp_path / "oled.gif").exists()  # closing the devices wrote the recording


def test_display_outputs_and_simulated_glitches(tmp_path):
    config = DevicesConfig.from_mapping(
        {"display": {"driver": "dummy", "gif": str(tmp_path / "a.gif"), "terminal": True, "fail_calls": [1]}},
        preset="sim")
    extra = GifRecorder(tmp_path / "b.gif")
    display = simulated_parts(config, scene=lambda: None, outputs=[extra])["display"]
    try:
        assert isinstance(display.device, FlakyDummy)
        assert [type(o) for o in display.outputs] == [GifRecorder, GifRecorder, TerminalView]
        assert display.outputs[0] is extra
        display.outputs[2] = TerminalView(io.StringIO(), clear=False)
        assert not display.show(Screen(big="1"))  # the first write is the simulated glitch
        assert display.wait_shown(timeout=5)
    finally:
        display.close()


def test_synthetic_camera_needs_a_scene():
    config = PRESETS["sim"]
    with pytest.raises(DeviceConfigError, match="needs the scripted table's scene"):
        simulated_parts(config)
    camera = simulated_parts(config, scene=lambda: "scene")["camera"]
    assert isinstance(camera, SyntheticCamera)


def test_parts_given_or_real_are_left_alone():
    given = object()
    config = DevicesConfig.from_mapping({"camera": {"backend": "synthetic"}}, preset="sim")
    assert simulated_parts(config, given={"camera": given}) == {"camera": given}  # no scene needed then
    assert simulated_parts(DevicesConfig.preset("desktop")) == {}


def test_a_real_table_configured_with_a_simulated_part_gets_it_from_the_simulation(tmp_path):
    from coyote_pi.commands.run import _open_real
    from coyote_pi.config import TableConfig

    devices_config = DevicesConfig.from_mapping({"camera": {"backend": "failing"}}, preset="sim")
    rig = _open_real(TableConfig(record_dir=tmp_path), devices_config, None)
    try:
        assert isinstance(rig.devices.camera, FailingCamera)  # the manual path can be tried on a real table
    finally:
        rig.close()
    with pytest.raises(DeviceConfigError, match="needs the scripted table's scene"):
        simulated_parts(DevicesConfig.preset("sim"))
    with pytest.raises(DeviceConfigError, match=r"needs \[game\] players"):
        _open_real(TableConfig(record_dir=tmp_path), DevicesConfig.preset("sim"), None)


TEST_BOOT_CONFIG = Path(__file__).resolve().parents[2] / "ci" / "test-boot.toml"


def test_the_boot_tests_configuration_is_an_unattended_table_and_says_it_is_for_tests_only():
    config = load_config(TEST_BOOT_CONFIG)
    devices = DevicesConfig.from_mapping(config.devices, preset="real")  # as `run` reads it on the Pi
    seats = dict(part.split(":") for part in config.game.virtual.split(","))
    assert sorted(int(seat) for seat in seats) == list(range(1, config.game.players + 1))  # every seat
    assert config.game.start_seat is not None and config.pacing.verdict_seconds > 0  # nothing to ask or wait for
    assert (devices.camera.backend, devices.display.driver, devices.buttons.backend) == ("synthetic", "dummy", "none")
    assert devices.camera.width * devices.camera.height <= 1152 * 648  # rendered fast under emulation
    assert config.record_dir == Path("/var/lib/coyote-pi/games")  # where the unit lets the table write
    assert "NEVER a Pi's configuration" in TEST_BOOT_CONFIG.read_text()


def test_the_boot_tests_table_publishes_for_the_page_where_the_pis_does():
    # [web] is off by default: without it the booted table published no bulletin, and the
    # page (coyote-pi-web.service reads /run/coyote-pi/public) said the table was not
    # running and could take no PIN. The folders must be the Pi's, which the units name.
    test, pi = load_config(TEST_BOOT_CONFIG), load_config(Path(__file__).resolve().parents[2] / "coyote_pi" / "data"
                                                          / "coyote-pi.example.toml")
    assert test.web.enabled and pi.web.enabled
    assert test.web_folders() == pi.web_folders()
    assert (test.web.hotspot_file, test.page_settings_file()) == (pi.web.hotspot_file, pi.page_settings_file())


def test_the_real_table_with_the_synthetic_camera_plays_by_itself(tmp_path):
    """`run --config ci/test-boot.toml` (without --sim): the scripted hands deal where the
    camera sees them and the virtual seats play, nobody pressing a button."""
    from coyote_pi.commands.run import _open_real

    config = load_config(TEST_BOOT_CONFIG).replace(record_dir=tmp_path).with_web(enabled=False)
    rig = _open_real(config, DevicesConfig.from_mapping(config.devices, preset="real"), None)
    player = threading.Thread(target=rig.run, name="unattended table")
    player.start()
    record = tmp_path / "game-0001.jsonl"
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and '"type":"bid"' not in (record.read_text() if record.exists() else ""):
            time.sleep(0.2)
    finally:
        rig.controller.stop()
        player.join(timeout=30)
        rig.close()
    kinds = [json.loads(line)["event"]["type"] for line in record.read_text().splitlines()[1:] if "event" in line]
    assert kinds[:2] == ["deal", "bid"]  # the camera read the hands' deal, a virtual seat bid
    assert isinstance(rig.devices.camera, SyntheticCamera)


def test_an_unattended_table_starts_the_next_game_once_per_game_end():
    events: queue.Queue = queue.Queue()
    next_game = NextGame(events, seconds=0.05)
    over = Prompt(stage=stages.GAME_OVER, epoch=1, round=5, seats=(), config=None, history=("a game",))
    for prompt in (over, over, dataclasses.replace(over, stage=stages.VERDICT, history=("another",))):
        next_game.on_prompt(prompt)  # the game's end is shown again as its pages turn
    press = events.get(timeout=5)
    assert (press.seat, press.button, press.kind) == (1, "ok", PRESS)
    time.sleep(0.2)
    assert events.empty()
    next_game.on_prompt(dataclasses.replace(over, history=("the next game",)))
    assert events.get(timeout=5).button == "ok"


def test_simulated_fingers_press_longer_than_the_confirmation_and_chatter_shorter():
    """The scripted players' fingers get the configured timing, confirmation included, and
    their pace fits it: a tap holds past the confirmation (after its chatter), chatter gaps
    never hold that long, and the next press comes after the release counted."""
    timing = DevicesConfig.from_mapping({"buttons": {"confirm_ms": 20}}, preset="sim").buttons.timing
    assert timing.confirm == 0.02
    timing = DevicesConfig.preset("sim").buttons.timing
    pace, bounce = SimPace(), Bounce()
    assert bounce.max_gap < timing.confirm
    assert pace.hold > timing.confirm + bounce.longest()
    assert pace.gap > max(timing.confirm, timing.debounce)


def test_closing_the_simulated_table_wakes_players_waiting_for_presses_a_dead_controller_holds():
    # A controller that stopped (a crash, a kill) with presses in its queue never marks
    # them done: a player waiting for that must stop when the table closes, not at its
    # retry time (here an hour).
    table = SimTable(seats=2, seed=1, pace=SimPace(retry=3600.0))
    table.controller_queue = queue.Queue()
    table.controller_queue.put("a press the controller never handled")
    waiting = threading.Thread(target=table.wait_for_presses, args=(3600.0,), daemon=True)
    waiting.start()
    table.close()
    waiting.join(timeout=10)
    assert not waiting.is_alive()
    assert table.presses_waiting()  # still unhandled: only the waiting ended
