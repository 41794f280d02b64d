"""The examples in the table modules' docstrings run and stay true."""

from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize("name", ["selector", "i18n", "config", "notifier", "deadlines", "setup_wizard", "play_by_play",
                                  "record_hold"])
def test_docstring_examples(name):
    module = importlib.import_module(f"coyote_pi.table.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
