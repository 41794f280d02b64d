"""Fixtures for the Pi tests: a throwaway Raspberry Pi OS root and a fake of its commands."""

from __future__ import annotations

from pathlib import Path

import pytest

from .fakes import FakeSystem, make_pi_root


@pytest.fixture
def pi_root(tmp_path: Path) -> Path:
    return make_pi_root(tmp_path / "root")


@pytest.fixture
def system(pi_root: Path) -> FakeSystem:
    return FakeSystem(pi_root)
