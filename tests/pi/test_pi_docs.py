"""The parts list and the README agree with the set-up guide and the code: every supported
board, the default release, a lamp, the edition of the game the markers are made for, the
sticker counts of the marker sheet, and what `make test` runs."""

from __future__ import annotations

import re
import shlex
from collections import Counter
from pathlib import Path

from coyote_pi.pi import install
from coyote_pi.vision.markerset import load_markers
from coyote_pi.vision.sheets import sticker_sheet

from .fakes import FakeSystem, make_pi_root

BOM = (install.REPO / "hardware" / "bom.md").read_text(encoding="utf-8")
GUIDE = (install.REPO / "docs" / "raspberry-pi.md").read_text(encoding="utf-8")
README = (install.REPO / "README.md").read_text(encoding="utf-8")
MAKEFILE = (install.REPO / "Makefile").read_text(encoding="utf-8")
PYPROJECT = (install.REPO / "pyproject.toml").read_text(encoding="utf-8")


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


def test_the_readme_parts_line_names_every_supported_board():
    parts = next(line for line in README.split("\n1. ") if line.startswith("**Parts**"))
    named = re.search(r"\(a (.*?), Camera Module", " ".join(parts.split())).group(1)
    assert re.split(r", | or ", named) == [board.removesuffix(" Model B") for board in supported_boards()]


def test_the_sticker_counts_of_the_parts_list_are_the_marker_sheets():
    """One count, from markers.toml as `coyote-pi markers` prints it: the stickers to cut
    out, the markers printed on the mat's page, and all of them together."""
    markers = load_markers()
    _, placed = sticker_sheet(markers, "a4")
    mat_page = max(sticker.page for sticker in placed)
    # By kind: card:5 is a card, empty-patch:1 a patch, slot:draw a slot.
    cut = Counter(sticker.role.split(":")[0] for sticker in placed if sticker.page != mat_page)
    on_mat = Counter(sticker.role.split(":")[0] for sticker in placed if sticker.page == mat_page)
    paper = next(line for line in BOM.splitlines() if "self-adhesive sticker paper" in line)
    said = re.search(
        r"^\| (\d+) \| A4 sheets.*\| (\d+) stickers to cut out: (\d+) card stickers \((\d+) mm, two per card\), "
        r"(\d+) for the Coyote card \((\d+) mm\), (\d+) left stand markers \((\d+) mm\), (\d+) right stand markers "
        r"\((\d+) mm\) and (\d+) empty-stand patches \((\d+) mm\)\. The PDF's last page is the centre mat with its "
        r"(\d+) markers \((\d+) locators, (\d+) slots\), printed on card \(below\): `coyote-pi markers` counts all "
        r"(\d+)\.", paper)
    assert said, paper
    numbers = [int(number) for number in said.groups()]
    size = markers.marker_mm
    assert numbers == [
        mat_page - 1, sum(cut.values()),
        cut["card"], size("card:5"), cut["coyote"], size("coyote"), cut["stand"], size("stand:1"),
        cut["stand-right"], size("stand-right:1"), cut["empty-patch"], markers.stand.empty_patch_side,
        sum(on_mat.values()), on_mat["mat"], on_mat["slot"], len(placed),
    ]  # fmt: skip
    assert markers.card_prints == 2  # "two per card", as the line says


def test_the_readme_says_what_make_test_runs():
    """The comment beside `make test` quotes the command the Makefile runs (slow tests and all)."""
    recipe = re.search(r"^test: .*\n\t(.+)$", MAKEFILE, re.MULTILINE).group(1)
    said = re.search(r"^make test +# .*?\((.+?)\)", README, re.MULTILINE).group(1)
    assert said == recipe.replace("$(BIN)", ".venv/bin")
    pytest_options = re.search(r"^addopts = (.*)$", PYPROJECT, re.MULTILINE).group(1) + " " + recipe
    assert "not slow" not in pytest_options  # no test is left out, as the README says


def named_by(detail: str) -> set[str]:
    """What one line of an installer step touches, as a host looks it up in the guide: the
    packages, users, groups and units of a command, a file's folder and name."""
    if not detail.startswith("$ "):  # write FILE [from SOURCE], link FILE -> TARGET, back up to FILE
        path = Path(next(word for word in detail.split() if "/" in word))
        return {str(path.parent), path.name}
    argv = shlex.split(detail[2:])
    if argv[0] in ("apt-get", "systemctl"):
        return {arg for arg in argv[2:] if not arg.startswith("-")}  # the packages, the units
    if argv[0] in ("groupadd", "useradd", "usermod"):
        groups = argv[argv.index("--groups") + 1].split(",") if "--groups" in argv else []
        return {argv[-1], *groups}
    if "--constraint" in argv:  # pip, with the release's constraints
        return {Path(argv[argv.index("--constraint") + 1]).name}
    return {argv[-1]}  # python3 -m venv ... the venv


def test_the_guide_lists_everything_the_installer_does(tmp_path):
    """Every package, user, group, file and unit of the dry run's plan (on a system that
    lacks all of them, groups and python3-venv too) is in the guide's list of what the
    installer does."""
    root = make_pi_root(tmp_path / "bare")
    (root / "etc/group").write_text("root:x:0:\npi:x:1000:\n")
    (root / "var/lib/dpkg/status").write_text("Package: bash\nStatus: install ok installed\n")
    plan = install.Installer(root, FakeSystem(root), dry_run=True, out=lambda line: None).install().steps
    listed = GUIDE[GUIDE.index("**What the installer does.**"):GUIDE.index('says "Nothing to do"')]

    missing = {step.summary: sorted({name for detail in step.details for name in named_by(detail) if name not in listed})
               for step in plan}
    assert {summary: names for summary, names in missing.items() if names} == {}
    assert "create the groups gpio, i2c, video, audio (Raspberry Pi OS has them)" in [step.summary for step in plan]


def test_the_releases_page_has_one_line_in_the_guide_that_agrees_with_the_makefile():
    """Its address goes in two places only: RELEASES_PAGE in the Makefile (which `make
    release` prints) and the guide's "Releases page:" line; until then both say there is none."""
    lines = re.findall(r"^\*\*Releases page:\*\* (.+)$", GUIDE, re.MULTILINE)
    address = re.search(r"^RELEASES_PAGE :=(.*)$", MAKEFILE, re.MULTILINE).group(1).strip()
    assert lines == [f"<{address}>" if address else "none yet."]
    assert "the project's releases page" not in README + GUIDE  # no page the reader cannot find
