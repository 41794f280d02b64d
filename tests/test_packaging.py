"""pyproject.toml: metadata that today's setuptools takes without deprecation warnings."""

from __future__ import annotations

import importlib.metadata
import re
import tomllib
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


def test_the_license_is_an_spdx_expression_with_a_backend_that_knows_it():
    """A ``{text = ...}`` table made setuptools warn on every ``make venv``; the SPDX
    string form needs setuptools 77 or later (and still installs with Bookworm's pip 23)."""
    project = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))
    assert project["project"]["license"] == "MIT"
    setuptools = next(req for req in project["build-system"]["requires"] if req.startswith("setuptools"))
    assert int(re.fullmatch(r"setuptools>=(\d+)(\.\d+)*", setuptools).group(1)) >= 77
    # What the build made of it, in the installed package's metadata (core metadata 2.4).
    assert importlib.metadata.metadata("coyote-pi")["License-Expression"] == "MIT"
