"""The parts list agrees with the set-up guide: every supported board, the default
release, a lamp, and the edition of the game the markers are made for."""

from __future__ import annotations

import re

from coyote_pi.pi import install

BOM = (install.REPO / "hardware" / "bom.md").read_text(encoding="utf-8")
GUIDE = (install.REPO / "docs" / "raspberry-pi.md").read_text(encoding="utf-8")


def supported_boards() -> list[str]:
    """The first column of the guide's "Supported boards" table."""
    table = GUIDE[GUIDE.index("**Supported boards.**"):].split("\n\n")[1]
    return [row.split("|")[1].strip() for row in table.splitlines()[2:]]


def test_the_parts_list_offers_every_supported_board():
    boards = supported_boards()
    assert boards == ["Pi 5", "Pi 4 Model B", "Zero 2 W"]
    computer = BOM[BOM.index("## The computer"):BOM.index("## Camera")]
    for board in boards:
        assert f"Raspberry Pi {board.removeprefix('Pi ')}" in computer, board


def test_the_sd_card_gets_the_release_the_guide_calls_the_default():
    default = re.search(r"\*\*Raspberry Pi OS \(64-bit\)\*\*, (\w+) \(the Imager's\s+default", GUIDE)
    assert default, "docs/raspberry-pi.md must say which release is the default"
    sd_card = next(line for line in BOM.splitlines() if "microSD card" in line)
    assert f"**{default.group(1)}** 64-bit" in sd_card


def test_the_parts_list_has_a_lamp_and_names_the_edition():
    assert re.search(r"^\| 1 \| A lamp over the table", BOM, re.MULTILINE)
    assert "**HeidelBÄR** edition" in BOM
