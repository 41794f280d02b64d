"""Strict JSON from outside: what Python's json module takes or fails on in its own
terms is refused with one exception and a message a person can act on."""

import doctest

import pytest

from coyote_pi import json_text
from coyote_pi.json_text import JSONTextError, loads


def test_docstring_examples():
    result = doctest.testmod(json_text, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_plain_json_reads_as_python_would():
    text = '{"bid": -12, "cards": ["5", "?"], "note": {"x": [1.5, null, true]}}'
    assert loads(text) == {"bid": -12, "cards": ["5", "?"], "note": {"x": [1.5, None, True]}}


@pytest.mark.parametrize("text,message", [
    ('{"bid": 3, "cards": ["5"', "not valid JSON: Expecting ',' delimiter at character 25"),
    ("not json", "not valid JSON: Expecting value at character 1"),
    ('{"a": NaN}', "not valid JSON: NaN is not a JSON number"),
    ('[-Infinity]', "not valid JSON: -Infinity is not a JSON number"),
    ('{"a": [{"b": 1, "b": 2}]}', "the key 'b' appears twice"),
    ("[" * 100_000 + "]" * 100_000, "nested more than 100 deep"),   # past every Python's recursion limit
    ('{"a": ' * 5_000 + "1" + "}" * 5_000, "nested more than 100 deep"),  # Python 3.13 reads this one
    ("[" * 101 + "]" * 101, "nested more than 100 deep"),
    ("1" + "0" * 5_000, "a number of more than 4300 digits"),
])
def test_what_json_or_python_would_take_badly_is_refused_in_plain_words(text, message):
    with pytest.raises(JSONTextError, match=message) as refused:
        loads(text)
    assert "sys.set_int_max_str_digits" not in str(refused.value)
    assert isinstance(refused.value, ValueError)  # callers that catch ValueError still do


def test_a_repeated_key_may_be_left_to_the_caller():
    assert loads('{"a": 1, "a": 2}', repeated_keys_checked=False) == {"a": 2}
    with pytest.raises(JSONTextError, match="nested more than 100 deep"):
        loads("[" * 100_000, repeated_keys_checked=False)


def test_nesting_up_to_the_limit_reads_and_brackets_in_text_do_not_count():
    value = loads("[" * 100 + "7" + "]" * 100)
    for _ in range(100):
        (value,) = value
    assert value == 7
    assert loads('{"note": "' + "[{" * 500 + '"}') == {"note": "[{" * 500}
