"""Fixtures for every test folder: a picamera2 that is missing, or installed but broken."""

from __future__ import annotations

import sys

import pytest

#: What the apt picamera2 raises on import next to a numpy of another ABI (its
#: simplejpeg is compiled against the release's numpy).
NUMPY_ABI_ERROR = "numpy.dtype size changed, may indicate binary incompatibility. Expected 96 from C header, got 88 from PyObject"


@pytest.fixture
def broken_picamera2(tmp_path, monkeypatch) -> str:
    """``import picamera2`` raises ValueError, as on a Pi whose venv holds the wrong numpy."""
    package = tmp_path / "broken-site-packages" / "picamera2"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(f"raise ValueError({NUMPY_ABI_ERROR!r})\n")
    monkeypatch.delitem(sys.modules, "picamera2", raising=False)
    monkeypatch.syspath_prepend(str(package.parent))
    return NUMPY_ABI_ERROR


@pytest.fixture
def no_picamera2(monkeypatch) -> None:
    """``import picamera2`` finds nothing, even on a Pi that has it."""
    monkeypatch.setitem(sys.modules, "picamera2", None)
