"""The configuration checks every hand-written file shares: one wording, any error class."""

from __future__ import annotations

import pytest

from coyote_pi import schema
from coyote_pi.schema import SchemaError


@pytest.mark.parametrize(("check", "value", "complaint"), [
    (lambda v: schema.whole_number(v, "[x] n"), True, "[x] n must be a whole number, not True"),
    (lambda v: schema.whole_number(v, "[x] n"), 2.5, "[x] n must be a whole number, not 2.5"),
    (lambda v: schema.number(v, "[x] n"), "3", "[x] n must be a number, not '3'"),
    (lambda v: schema.number(v, "[x] n"), False, "[x] n must be a number, not False"),
    (lambda v: schema.flag(v, "[x] on"), 1, "[x] on must be true or false, not 1"),
    (lambda v: schema.within(v, "[x] n", 1, 10), 11, "[x] n must be 1 to 10, not 11"),
    (lambda v: schema.choice(v, "[x] c", ("a", "b")), "z", "[x] c must be one of 'a', 'b', not 'z'"),
    (lambda v: schema.table(v, "[x]", ("a",)), [1], "[x] must be a table"),
    (lambda v: schema.table(v, "[x]", ("a", "b"), ("b",)), {"a": 1}, "[x] is missing the key 'b'"),
    (lambda v: schema.table(v, "[x]", ("a", "b")), {"c": 1}, "[x] has an unknown key 'c' (known: a, b)"),
])
def test_each_check_says_where_and_what_would_do(check, value, complaint) -> None:
    with pytest.raises(SchemaError) as caught:
        check(value)
    assert str(caught.value) == complaint


def test_good_values_pass_through_unchanged() -> None:
    assert schema.whole_number(3, "n") == 3 and schema.number(2.5, "n") == 2.5 and schema.flag(False, "f") is False
    assert schema.within(1, "n", 1, 10) == 1 and schema.choice("b", "c", ("a", "b")) == "b"
    assert schema.table({"a": 1}, "t", ("a", "b")) == {"a": 1}


def test_a_reader_raises_its_own_error_naming_its_file() -> None:
    class PinsWrong(ValueError):
        pass

    with pytest.raises(PinsWrong, match=r"^pins.toml: \[i2c\] bus must be a whole number, not 'one'$"):
        schema.whole_number("one", "[i2c] bus", fail=lambda complaint: PinsWrong(f"pins.toml: {complaint}"))
