"""`coyote-pi doctor --report`: one file from the device, every piece it lacks a line, no card of an open round."""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pytest

from coyote_pi.commands import doctor as doctor_command
from coyote_pi.devices.errors import CameraError
from coyote_pi.engine import GameConfig
from coyote_pi.engine.players import ScriptedPlayer, next_scripted_event
from coyote_pi.pi import field_report
from coyote_pi.pi.doctor import Host
from coyote_pi.pi.field_report import Edge, FieldReport, Settings, Sources, line_timings
from coyote_pi.record import RecordedGame
from coyote_pi.sim.camera import SyntheticCamera
from coyote_pi.sim.scene import TableScene

#: Cards whose names appear nowhere else in a report (no timing or count is spelled so).
HIDDEN = {1: "max0", 2: "?", 3: "-10"}


def no_system(argv) -> tuple[int, str]:
    return 127, ""


def scene_camera() -> SyntheticCamera:
    scene = TableScene(seats=3, seat_cards=HIDDEN)
    return SyntheticCamera(lambda: scene, size=(2304, 1296), seed=3)


def game_with_an_open_round(folder: Path) -> None:
    """game-0001.jsonl as the table leaves it mid-round: round 2 dealt and bid on, its cards sealed."""
    table = RecordedGame.start(folder / "game-0001.jsonl", GameConfig(players=3, variant="trickster", start_seat=2),
                               clock=lambda: "2026-11-21T12:00:00.000Z")
    players = {seat: ScriptedPlayer() for seat in table.game.eyes}
    for _ in range(8):
        table.apply(next_scripted_event(table.game, players, 4, physical=True))
    assert table.game.round_number == 2 and all(table.game.round.seat_cards.values())


def test_a_report_never_takes_a_still_while_a_round_is_open(tmp_path):
    game_with_an_open_round(tmp_path)
    opened = []

    def open_camera():
        opened.append(True)
        return scene_camera()

    text = FieldReport(Sources(host=Host(query=no_system), records=tmp_path, open_camera=open_camera)).text()

    assert opened == []  # no still was taken at all
    for section in ("camera", "reading live frames", "stands"):
        body = text.split(f"== {section}\n")[1].split("\n")[0]
        assert body.startswith("refused: a round is open in game-0001.jsonl"), body


def test_a_report_between_rounds_reads_stills_but_names_no_card(tmp_path):
    text = FieldReport(Sources(host=Host(query=no_system), records=tmp_path, open_camera=scene_camera),
                       Settings(frames=1)).text()

    reading = text.split("== reading live frames\n")[1]
    assert reading.startswith("frame 1: table reader ") and "OpenCV's default detector" in reading
    stands = text.split("== stands\n")[1].split("\n\n")[0].splitlines()
    assert [line.split(":")[0] for line in stands] == ["stand 1", "stand 2", "stand 3"]
    assert all(" px across, blur " in line and " grey levels" in line for line in stands)
    lowered = text.lower()
    assert not any(card in lowered for card in HIDDEN.values()) and "max 0" not in lowered


def test_each_missing_piece_is_a_line_not_a_crash(tmp_path):
    def no_camera():
        raise CameraError("cannot start the Pi camera: no cameras available")

    text = FieldReport(Sources(host=Host(root=tmp_path, query=no_system), records=tmp_path,
                               open_camera=no_camera)).text()

    assert "board: not a Raspberry Pi" in text and "system: unknown (no os-release)" in text
    assert "apt: not available (no dpkg-query" in text
    assert "not available: CameraError: cannot start the Pi camera: no cameras available" in text
    assert "no frame read (see the camera section)" in text
    assert "== buttons\nnot available: no GPIO here" in text
    assert "== display\nnot available: no display configured" in text
    assert "== services\nnot available: no systemctl" in text


def test_a_running_service_keeps_its_devices(tmp_path):
    held = "the table's service holds the camera, the buttons and the OLED: stop it first"
    sources = Sources(host=Host(query=no_system), records=tmp_path, open_camera=scene_camera, held_by_service=held,
                      watch_buttons=lambda seconds: pytest.fail("the buttons were claimed"),
                      open_display=lambda: pytest.fail("the OLED was opened"))
    text = FieldReport(sources, Settings(button_seconds=1)).text()
    assert text.count(held) == 5  # camera, frames, stands, buttons, display


def test_a_display_that_fails_says_why(tmp_path):
    class Unplugged(field_report.DisplayProbe):
        def show(self, index: int) -> bool:
            return False

        def last_error(self) -> str | None:
            return "DeviceNotFoundError: no I2C bus /dev/i2c-1 (is I2C enabled?)"

    lines = FieldReport(Sources(host=Host(query=no_system), records=tmp_path, open_display=Unplugged),
                        Settings(display_frames=4)).display()
    assert lines[0].endswith("4 not shown at once (I2C errors, retried)")
    assert lines[1] == "last error: DeviceNotFoundError: no I2C bus /dev/i2c-1 (is I2C enabled?)"


def test_services_without_systemd_running_say_so(tmp_path):
    lines = FieldReport(Sources(host=Host(query=lambda argv: (1, "")), records=tmp_path)).services()
    assert lines == ["not available: `systemctl show` failed (exit status 1): is systemd running here?"]


def test_services_and_journal_since_boot(tmp_path):
    def system(argv):
        if argv[0] == "systemctl":
            restarts = "3" if argv[2] == "coyote-pi.service" else "0"
            return 0, f"ActiveState=active\nNRestarts={restarts}\nExecMainStartTimestamp=Fri 2026-11-27 04:00:00 UTC"
        assert argv[:6] == ["journalctl", "-b", "-q", "--no-pager", "-p", "warning"]
        return 0, "\n".join(f"[{n}.0] coyote-pi[1]: display write failed" for n in range(25))

    services = FieldReport(Sources(host=Host(query=system), records=tmp_path)).services()
    assert services[0] == "coyote-pi.service: active, 3 restart(s), started Fri 2026-11-27 04:00:00 UTC"
    assert services[3] == f"journal warnings since boot: 25 (the last {field_report.JOURNAL_LINES})"
    assert len(services) == 4 + field_report.JOURNAL_LINES and services[-1].endswith("[24.0] coyote-pi[1]: display write failed")


def test_line_timings_settle_bounces_into_presses():
    def burst(start: float, pressed: bool, toggles: int) -> list[Edge]:
        """``toggles`` chattering pairs 1 ms apart, settling at ``pressed``."""
        edges = [Edge(start + i * 0.001, (i % 2 == 0) == pressed) for i in range(2 * toggles + 1)]
        return edges

    edges = burst(0.0, True, 2) + burst(0.080, False, 1) + burst(0.5, True, 0) + burst(0.62, False, 3)
    timing = line_timings(edges, debounce=0.02)
    assert timing.presses == 2
    assert timing.press_seconds == pytest.approx((0.076, 0.12))  # settled press to the release's first edge
    assert timing.bounces == 4 + 2 + 0 + 6
    assert timing.longest_chatter == pytest.approx(0.006)
    assert timing.line() == "2 press(es), held 76-120 ms (median 98); 12 bounce(s), longest chatter 6.0 ms"
    assert line_timings([], 0.02).line() == "no press seen"


def test_doctor_report_on_the_simulated_table_writes_the_file(tmp_path, capsys):
    parser = argparse.ArgumentParser()
    doctor_command.configure(parser)
    report = tmp_path / "report.txt"
    args = parser.parse_args(["--report", str(report), "--sim", "--records", str(tmp_path), "--frames", "1"])
    assert doctor_command.run(args) == 0
    assert f"the field report is in {report}" in capsys.readouterr().out
    text = report.read_text()
    sections = [line[3:] for line in text.splitlines() if line.startswith("== ")]
    assert sections == ["board and system", "libraries", "camera", "reading live frames", "stands", "buttons",
                        "display", "services"]
    buttons = text.split("== buttons\n")[1].split("\n\n")[0].splitlines()
    assert buttons[1].startswith("seat 1 minus: 1 press(es), held ") and "bounce(s)" in buttons[1]
    assert text.split("== display\n")[1].startswith("20 frames: median ")
    assert not np.isnan(float(text.split("median: table reader ")[1].split(" ms")[0]))


def test_the_apt_versions_name_the_package_that_provides_a_library(tmp_path):
    """On Trixie libzbar0t64 provides the libzbar0 the installer asks for."""
    def trixie(argv) -> tuple[int, str]:
        if argv[0] == "dpkg-query":
            return 0, ("python3-picamera2\t0.3.30-1\t\nlibzbar0t64\t0.23.93-8\tlibzbar0 (= 0.23.93-8)\n"
                       "i2c-tools\t4.4-2\t\n")
        return no_system(argv)

    lines = FieldReport(Sources(host=Host(root=tmp_path, query=trixie), records=tmp_path)).libraries()
    assert "apt python3-picamera2: 0.3.30-1" in lines and "apt i2c-tools: 4.4-2" in lines
    assert "apt libzbar0: 0.23.93-8 (libzbar0t64)" in lines
