"""The command line: the `resolve` scripting contract and a fast, light `--help`."""

import json
import re
import select
import subprocess
import sys

import pytest

from coyote_pi.cli import main


def coyote(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "coyote_pi", *args], input=stdin,
                          capture_output=True, text=True, check=False)


def test_help_lists_every_command_without_loading_heavy_libraries():
    probe = ("import sys; from coyote_pi.cli import main; main(['--help']); "
             "print(sorted(m for m in ('cv2', 'numpy', 'PIL', 'luma', 'gpiozero') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    for command in ("demo", "run", "resolve", "odds", "replay", "read", "markers", "bench", "doctor"):
        assert f"  {command} " in done.stdout
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_unknown_command_is_an_error():
    done = coyote("frobnicate")
    assert done.returncode == 2 and "unknown command 'frobnicate'" in done.stderr


def test_resolve_contract_example():
    done = coyote("resolve", stdin='{"bid": 12, "cards": ["5", "?", "max0", "-10"], "deck": ["7", "3"]}\n')
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    # ? becomes 7, Max 0 then zeroes the 7: 5 + 0 + 0 - 10 = -5 < 12.
    assert answer["total"] == -5 and answer["challenger_wins"] is True
    assert answer["replacement"] == "7" and answer["adjustments"] == [{"by": "max0", "card": "7", "counts": 0}]
    assert answer["explanation"] == ["Cards in play: 5, ?, Max 0, -10", "? counts as 7", "Max 0: 7 counts 0",
                                     "Total: 5 + 0 + 0 + (-10) = -5", "-5 is below 12: the challenger wins"]


def test_resolve_explains_in_the_catalogs_words_in_the_language_asked_for():
    """The explanation is the table's own (words/verdict.py), in --language: the OLED's lines."""
    line = '{"bid": 12, "cards": ["5", "?", "max0", "-10"], "deck": ["7", "3"]}\n'
    answers = {language: json.loads(coyote("resolve", "--language", language, stdin=line).stdout)["explanation"]
               for language in ("de", "ru")}
    assert answers["de"][1:3] == ["? zählt als 7", "Max 0: 7 zählt 0"]
    assert answers["ru"][0] == "Карты в игре: 5, ?, Max 0, -10"
    assert coyote("resolve", "--language", "fr", stdin=line).returncode == 2


@pytest.mark.parametrize("line,total,challenger_wins", [
    ('{"bid": 3, "cards": ["Max 0", "-10", "-5"]}', -10, True),       # Max 0 zeroes a negative card
    ('{"bid": 20, "cards": ["20", "0"]}', 20, False),                   # equal to the bid: the bid holds
    ('{"bid": -20, "cards": ["?", "-10"], "deck": ["max0", "1"]}', 0, False),  # ? becomes Max 0
    ('{"bid": 1, "cards": [" 15 ", 20, "max0"]}', 15, False),           # names are forgiving
])
def test_resolve_rules(line, total, challenger_wins):
    answer = json.loads(coyote("resolve", stdin=line + "\n").stdout)
    assert (answer["total"], answer["challenger_wins"]) == (total, challenger_wins)


def test_resolve_answers_every_line_and_flags_bad_ones():
    lines = [
        '{"bid": 5, "cards": ["1", "2"]}',
        "not json",
        '{"bid": "5", "cards": ["1"]}',
        '{"bid": 5, "cards": ["1", "1"]}',
        '{"bid": 5, "cards": ["?", "1"]}',
        '{"bid": 5, "cards": ["11"]}',
        '{"bid": 5, "cards": ["1"], "deck": ["1"]}',
        '{"bid": 5, "cards": ["1"], "colour": "red"}',
        "",
        '{"bid": 2, "cards": ["2"]}',
    ]
    done = coyote("resolve", stdin="\n".join(lines) + "\n")
    assert done.returncode == 1
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == 9  # the blank line is skipped
    assert answers[0]["total"] == 3 and answers[-1]["total"] == 2
    errors = [a["error"] for a in answers[1:-1]]
    assert errors[0].startswith("not valid JSON")
    assert "'bid' must be a whole number" in errors[1]
    assert "appears twice" in errors[2]
    assert "give the rest of the deck" in errors[3]
    assert '"11" is not a Coyote card' in errors[4]
    assert "appears twice among the cards and deck" in errors[5]
    assert "unknown field(s): colour" in errors[6]
    assert [a["line"] for a in answers[1:-1]] == [2, 3, 4, 5, 6, 7, 8]  # input lines, counted from 1
    assert "line" not in answers[0] and "line" not in answers[-1]


def test_resolve_spells_json_values_the_json_way_and_tells_a_byte_order_mark_plainly():
    lines = ['{"bid": null, "cards": ["1"]}', '{"bid": true, "cards": ["1"]}', '{"bid": 5, "cards": [null]}',
             '{"bid": 5, "cards": [false]}', '\ufeff{"bid": 5, "cards": ["1"]}']
    done = coyote("resolve", stdin="\n".join(lines) + "\n")
    errors = [json.loads(line)["error"] for line in done.stdout.splitlines()]
    assert errors[:4] == ["'bid' must be a whole number, got null", "'bid' must be a whole number, got true",
                          "null is not a Coyote card name", "false is not a Coyote card"]
    assert "byte order mark" in errors[4] and "utf-8-sig" not in errors[4]
    assert not any(word in " ".join(errors) for word in ("None", "True", "False"))


def test_resolve_refuses_what_json_or_python_would_take_badly_and_goes_on():
    """Each of these once got through or ended the run with a traceback."""
    lines = [
        b'{"bid": 3, "cards": ["5"',                          # cut short: the position is on this line
        b'{"bid": 1, "bid": 100, "cards": ["1"]}',            # which bid? a reader could take either
        b"[" * 1000 + b"]" * 1000,                            # past Python 3.11's recursion limit
        b'{"bid": 1' + b"0" * 5000 + b', "cards": ["1"]}',   # past CPython's integer digits limit
        b'{"bid": 5, "cards": ["\xff"]}',                      # not UTF-8
        b'{"bid": 5, "cards": ["1", "2"]}\r',                 # a CRLF line end is only a line end
    ]
    done = subprocess.run([sys.executable, "-m", "coyote_pi", "resolve"], input=b"\n".join(lines) + b"\n",
                          capture_output=True, check=False)
    assert done.returncode == 1 and done.stderr == b""
    answers = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert [a.get("line") for a in answers] == [1, 2, 3, 4, 5, None]
    assert answers[0]["error"] == "not valid JSON: Expecting ',' delimiter at character 25"
    assert "the key 'bid' appears twice" in answers[1]["error"]
    assert answers[2]["error"] == "arrays or objects nested more than 100 deep"
    assert answers[3]["error"] == "a number of more than 4300 digits"
    assert answers[4]["error"] == "not UTF-8 text"
    assert answers[5]["total"] == 3


def test_resolve_answers_each_line_as_it_comes():
    """A script may keep the command open and ask one line at a time: each answer comes
    before the next question is written (no waiting for a full buffer or the end)."""
    process = subprocess.Popen([sys.executable, "-m", "coyote_pi", "resolve"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True, bufsize=1)
    try:
        for line, total in (('{"bid": 5, "cards": ["1", "2"]}', 3), ('{"bid": 2, "cards": ["max0", "2"]}', 0)):
            process.stdin.write(line + "\n")
            process.stdin.flush()
            assert select.select([process.stdout], [], [], 30)[0], "no answer to a line within 30 s"
            assert json.loads(process.stdout.readline())["total"] == total
        process.stdin.close()
        assert process.wait(timeout=30) == 0
    finally:
        process.kill()


@pytest.mark.parametrize("target", ["engine", "vision", "table", "soak", "web"])
def test_help_built_from_a_docstring_reads_as_plain_text(target, capsys):
    """``bench TARGET --help`` shows its module's docstring without Sphinx markup."""
    with pytest.raises(SystemExit):
        main(["bench", target, "--help"])
    shown = capsys.readouterr().out
    assert len(shown) > 300
    assert not re.search(r"``|:(class|meth|func|mod|attr|data):`|^-{3,}$", shown, re.M), shown
