"""The examples in the device modules' docstrings run and stay true."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["pinmap", "events", "buttons", "scheduler", "render", "gpio_lines", "focus"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(f"coyote_pi.devices.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
