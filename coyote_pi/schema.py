"""The checks every configuration file of the project shares, worded once.

The table's configuration (``config.py``), the device sections and presets
(``devices/config.py``) and the pin map (``devices/pinmap.py``) are TOML that people
write by hand. Each file's reader walks its own structure; the checks of one value are
here: a table with known keys, a whole number (TOML's ``true`` is not one, though Python
counts a bool as an int), a number, true or false, a range, a choice. Each complains in
one line that starts with ``where`` (``"[camera] width"``, ``"[[seat]] #2"``) and says
what would do, so a person sees one wording whichever file is wrong. ``fail`` turns the
complaint into the exception to raise: :class:`SchemaError` by default, the file's own
error class (with its source named) when its reader passes one.

The game record's JSON has checks of its own (the engine's events, ``record/lines.py``):
its messages spell values as JSON does (``null``, ``true``, ``json_text.spelled``).

>>> whole_number(3, "[display] width")
3
>>> whole_number(True, "[display] width")
Traceback (most recent call last):
...
coyote_pi.schema.SchemaError: [display] width must be a whole number, not True
>>> table({"widht": 1}, "[display]", ("width", "height"))
Traceback (most recent call last):
...
coyote_pi.schema.SchemaError: [display] has an unknown key 'widht' (known: width, height)
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import TypeVar

_Option = TypeVar("_Option")
#: Turns a complaint into the exception to raise.
Fail = Callable[[str], Exception]


class SchemaError(ValueError):
    """A value of a configuration file that breaks its rule (the message says which and why)."""


def table(value: object, where: str, allowed: Collection[str], required: Collection[str] = (),
          fail: Fail = SchemaError) -> dict[str, object]:
    """``value`` as a TOML table whose keys are all ``allowed`` and include ``required``
    (the message lists the known keys in the order of ``allowed``, as documented)."""
    if not isinstance(value, Mapping):
        raise fail(f"{where} must be a table")
    for key in value:
        if key not in allowed:
            raise fail(f"{where} has an unknown key {key!r} (known: {', '.join(allowed)})")
    for key in required:
        if key not in value:
            raise fail(f"{where} is missing the key {key!r}")
    return dict(value)


def whole_number(value: object, where: str, fail: Fail = SchemaError) -> int:
    """``value`` if it is a whole number (not true or false)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise fail(f"{where} must be a whole number, not {value!r}")
    return value


def number(value: object, where: str, fail: Fail = SchemaError) -> float:
    """``value`` if it is a number, whole or not (not true or false)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise fail(f"{where} must be a number, not {value!r}")
    return value


def flag(value: object, where: str, fail: Fail = SchemaError) -> bool:
    """``value`` if it is true or false."""
    if not isinstance(value, bool):
        raise fail(f"{where} must be true or false, not {value!r}")
    return value


def within(value: float, where: str, low: float, high: float, fail: Fail = SchemaError) -> float:
    """``value`` if it lies from ``low`` to ``high``, both included."""
    if not low <= value <= high:
        raise fail(f"{where} must be {low:g} to {high:g}, not {value!r}")
    return value


def choice(value: object, where: str, options: Collection[_Option], fail: Fail = SchemaError) -> _Option:
    """``value`` if it is one of ``options``."""
    for option in options:
        if value == option:
            return option
    raise fail(f"{where} must be one of {', '.join(repr(option) for option in options)}, not {value!r}")
