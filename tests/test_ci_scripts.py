"""The pure parts of the CI scripts: `make test-arm64`'s cache key and game comparison, the wheel check's tags."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

CI = Path(__file__).resolve().parents[1] / "ci"


def script(name: str) -> ModuleType:
    """A script of ci/ (no .py suffix) as a module, without running its main."""
    loader = importlib.machinery.SourceFileLoader(name.replace("-", "_"), str(CI / name))
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(loader.name, loader))
    loader.exec_module(module)
    return module


arm64 = script("test-arm64")
wheels = script("check-aarch64-wheels")


def record_line(kind: str, seq: int, time: str, **fields) -> str:
    return json.dumps({"kind": kind, "seq": seq, "time": time, "hash": f"h{seq}{time}", "prev": None, **fields})


def test_the_games_compare_without_times_hashes_salts_photos_and_notes(tmp_path):
    x86, arm = tmp_path / "x86.jsonl", tmp_path / "arm.jsonl"
    x86.write_text("\n".join([
        record_line("setup", 0, "a", config={"players": 2}),
        record_line("note", 1, "a", note={"wait": "deal"}),
        record_line("observation", 2, "a", event={"type": "deal", "commitment": "c1"}, photo=None),
        record_line("action", 3, "a", event={"type": "bid", "seat": 2, "amount": 7}),
    ]) + "\n")
    arm.write_text("\n".join([
        record_line("setup", 0, "b", config={"players": 2}),
        record_line("observation", 1, "b", event={"type": "deal", "commitment": "c2"}, photo={"sha256": "x"}),
        record_line("note", 2, "b", note={"wait": "deal", "problems": []}),
        record_line("action", 3, "b", event={"type": "bid", "seat": 2, "amount": 7}),
    ]) + "\n")
    assert arm64.compare_games(x86, arm) is None
    arm.write_text(arm.read_text().replace('"amount": 7', '"amount": 8'))
    assert arm64.compare_games(x86, arm).startswith("game line 3 differs:")


def test_the_rootfs_is_rebuilt_only_when_what_goes_into_it_changes(monkeypatch):
    key = arm64.rootfs_key("bookworm")
    assert arm64.rootfs_key("bookworm") == key and arm64.rootfs_key("trixie") != key
    monkeypatch.setattr(arm64, "ROOTFS_PACKAGES", (*arm64.ROOTFS_PACKAGES, "tmux"))
    assert arm64.rootfs_key("bookworm") != key
    assert arm64.rootfs_tarball("bookworm").name.startswith("rootfs-bookworm-arm64-")


def test_boards_name_their_processors():
    assert arm64.BOARDS == {"pi4": "cortex-a72", "pi5": "cortex-a76", "zero2w": "cortex-a53"}


@pytest.mark.parametrize(("release", "newest"), [("bookworm", "manylinux_2_36_aarch64"),
                                                 ("trixie", "manylinux_2_41_aarch64")])
def test_the_wheel_check_accepts_every_manylinux_tag_of_the_releases_glibc(release, newest):
    tags = wheels.platforms(release)
    assert tags[0] == newest and "manylinux_2_17_aarch64" in tags and tags[-1] == "manylinux2014_aarch64"


def test_the_wheel_check_reads_the_pins_and_the_python_of_a_constraints_file(tmp_path):
    constraints = tmp_path / "bookworm.txt"
    constraints.write_text("# python: 3.11\n# a comment\nnumpy==1.24.2\nluma.oled==3.16.0\n")
    assert wheels.python_of(constraints) == "3.11"
    assert wheels.pins(constraints) == ["numpy==1.24.2", "luma.oled==3.16.0"]
