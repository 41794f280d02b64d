"""JSON text from outside the program, read strictly and refused in plain words.

A record's line and a line on ``coyote-pi resolve``'s input come from files and
scripts that other programs write. Python's :func:`json.loads` accepts more than JSON
(``NaN``, ``Infinity``) and lets a key appear twice (the last one wins, though another
reader could take the first); and on some inputs it fails in its own terms: arrays
nested a thousand deep raise :class:`RecursionError`, and a number of more than 4300
digits trips CPython's limit on converting text to integers, whose message tells the
user to call ``sys.set_int_max_str_digits()``. :func:`loads` refuses all of these with
one exception, :class:`JSONTextError`, whose message says what is wrong.

How deep is too deep depends on the Python (3.11 gives up near 1,000 levels, less the
depth of the calling code; 3.13 reads 5,000): so that a text reads the same on every
release, arrays and objects may nest at most :data:`MAX_DEPTH` deep, everywhere.

>>> loads('{"bid": 12}')
{'bid': 12}
>>> loads('{"bid": 1, "bid": 2}')
Traceback (most recent call last):
...
coyote_pi.json_text.JSONTextError: the key 'bid' appears twice: a reader could see either value
"""

from __future__ import annotations

import json
import sys
from typing import Any, TypeAlias

#: Arrays and objects inside one another, at most: far below any Python's own limit, and
#: far above what a record or a request needs.
MAX_DEPTH = 100

#: A JSON object as another process wrote it: each value's type is checked where it is used.
JsonObject: TypeAlias = dict[str, Any]


class JSONTextError(ValueError):
    """The text is not JSON this program takes; the message says why."""


def loads(text: str, *, repeated_keys_checked: bool = True) -> object:
    """The value of JSON ``text``, or :class:`JSONTextError`.

    ``repeated_keys_checked=False`` skips the check for a key given twice, which costs a
    Python call per object: for a caller that compares the text with the value written
    back out (a key given twice is never written back), and checks only when they differ.
    """
    try:
        value = json.loads(text, parse_constant=_not_a_number,
                           object_pairs_hook=_without_repeats if repeated_keys_checked else None)
    except JSONTextError:
        raise
    except json.JSONDecodeError as error:
        if text.startswith(_BOM):  # Python's own message says to decode with utf-8-sig: not for us
            raise JSONTextError("the text begins with a UTF-8 byte order mark (an editor added it): save it as "
                                "UTF-8 without one (remove the first three bytes, EF BB BF)") from None
        raise JSONTextError(f"not valid JSON: {error.msg} at character {error.pos + 1}") from None
    except RecursionError:
        raise JSONTextError(_TOO_DEEP) from None
    except ValueError:  # the only other one: CPython's limit on an integer's digits
        raise JSONTextError(f"a number of more than {sys.get_int_max_str_digits()} digits") from None
    # Counting brackets (quoted ones too) is quick and bounds the depth from above.
    if text.count("[") + text.count("{") > MAX_DEPTH and _depth(value) > MAX_DEPTH:
        raise JSONTextError(_TOO_DEEP)
    return value


def spelled(value: object) -> str:
    """``value`` as JSON writes it, for a message about a value read from JSON: ``null``,
    ``true``, ``"max0"`` (not Python's ``None``, ``True``, ``'max0'``); Python's own
    spelling for what JSON cannot hold.

    >>> spelled(None), spelled(True), spelled("Max 0"), spelled([1, "a"]), spelled(2.5)
    ('null', 'true', '"Max 0"', '[1, "a"]', '2.5')
    """
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):
        return repr(value)


_BOM = "\ufeff"
_TOO_DEEP = f"arrays or objects nested more than {MAX_DEPTH} deep"


def _depth(value: object) -> int:
    """How many arrays and objects lie inside one another at the deepest (0 for a number)."""
    deepest, stack = 0, [(value, 0)]
    while stack:  # not recursive: the value may be deeper than Python's recursion limit
        item, depth = stack.pop()
        if isinstance(item, (list, dict)):
            deepest = max(deepest, depth + 1)
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def _not_a_number(constant: str) -> None:
    raise JSONTextError(f"not valid JSON: {constant} is not a JSON number")


def _without_repeats(pairs: list[tuple[str, object]]) -> dict[str, object]:
    found = dict(pairs)
    if len(found) != len(pairs):
        keys = [key for key, _ in pairs]
        repeated = next(key for key in keys if keys.count(key) > 1)
        raise JSONTextError(f"the key {repeated!r} appears twice: a reader could see either value")
    return found
