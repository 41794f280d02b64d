"""docs/wiring.md is generated from the pin map and must never drift from it."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from coyote_pi.commands.wiring import main
from coyote_pi.devices.pinmap import HEADER, parse_pinmap
from coyote_pi.devices.wiring import (
    GROUND_PINS,
    REGENERATE_COMMAND,
    ground_plan,
    header_diagram,
    render_wiring,
)

from .conftest import REPO

WIRING = REPO / "docs" / "wiring.md"


def test_docs_wiring_matches_the_pin_map(pinmap):
    """The drift check: regenerate with the command at the top of docs/wiring.md."""
    assert WIRING.read_text(encoding="utf-8") == render_wiring(pinmap), (
        f"docs/wiring.md is out of date with hardware/pinmap.toml; run: {REGENERATE_COMMAND}"
    )


def test_document_says_how_to_regenerate_it_near_the_top(pinmap):
    head = render_wiring(pinmap).splitlines()[:10]
    assert any(REGENERATE_COMMAND in line for line in head)


def test_every_seat_has_a_table_row_per_button(pinmap):
    document = render_wiring(pinmap)
    for seat in pinmap.seats:
        section = document.split(f"### Seat {seat.number}\n", 1)[1].split("###", 1)[0]
        for name, pin in seat.buttons():
            assert re.search(rf"^\| {name} \| .* \| GPIO{pin.gpio} \| {pin.header} \|$", section, re.M), (seat, name)


def test_header_diagram_places_every_assigned_gpio_on_its_pin(pinmap):
    rows = header_diagram(pinmap)
    assert len(rows) == 20
    for label, pin in pinmap.uses():
        row = rows[(pin.header - 1) // 2]
        assert label in row, (label, pin, row)
        assert f"GPIO{pin.gpio}" in row
    for odd in range(1, 41, 2):
        assert re.search(rf"\b{HEADER[odd]}\s+{odd} o o {odd + 1}\s+{HEADER[odd + 1]}\b", rows[(odd - 1) // 2])


def test_each_wire_group_gets_its_own_ground_pin(pinmap):
    plan = ground_plan(pinmap)
    assert plan["OLED"] == 6
    assert set(plan) == {"OLED", "shutdown button", *(f"seat {s.number}" for s in pinmap.seats)}
    assert len(set(plan.values())) == len(plan)  # 8 groups, 8 ground pins: one wire per pin
    assert set(plan.values()) <= set(GROUND_PINS)


def test_oled_camera_and_shutdown_sections(pinmap):
    document = render_wiring(pinmap)
    assert "| VCC | 1 | 3.3 V" in document
    assert "| SDA | 3 | I2C data, GPIO2 |" in document
    assert "| SCL | 5 | I2C clock, GPIO3 |" in document
    assert "0x3C" in document
    assert "## Camera (CSI ribbon)" in document
    assert f"GPIO{pinmap.shutdown.gpio} (pin {pinmap.shutdown.header})" in document


def test_a_changed_map_changes_the_document(pinmap):
    text = (REPO / "hardware" / "pinmap.toml").read_text(encoding="utf-8")
    moved = parse_pinmap(text.replace("ok = { gpio = 27, header = 13 }", "ok = { gpio = 12, header = 32 }"))
    assert render_wiring(moved) != render_wiring(pinmap)
    assert "| ok | confirm the selection | GPIO12 | 32 |" in render_wiring(moved)


def test_check_and_write_flags(tmp_path, capsys):
    target = tmp_path / "wiring.md"
    assert main(["--write", str(target)]) == 0
    assert main(["--check", str(target)]) == 0
    target.write_text(target.read_text(encoding="utf-8") + "hand edit\n", encoding="utf-8")
    assert main(["--check", str(target)]) == 1
    assert "out of date" in capsys.readouterr().err


def test_bad_pin_map_is_reported_without_traceback(tmp_path, capsys):
    bad = tmp_path / "pinmap.toml"
    bad.write_text("[i2c", encoding="utf-8")
    assert main(["--pinmap", str(bad)]) == 1
    assert capsys.readouterr().err.startswith("error: ")


@pytest.mark.parametrize("args", [[], ["--check", "docs/wiring.md"]])
def test_module_runs_as_a_command(args):
    result = subprocess.run(
        [sys.executable, "-m", "coyote_pi.commands.wiring", *args], cwd=REPO, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    if not args:
        assert result.stdout == WIRING.read_text(encoding="utf-8")
