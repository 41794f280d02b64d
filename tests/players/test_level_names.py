"""One list of the levels, with the baselines marked, in every text that names them."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from coyote_pi.commands import demo, run
from coyote_pi.locale import LANGUAGES
from coyote_pi.players import BASELINES, LEVEL_NAMES, TABLE_LEVELS, levels_text, parse_seats
from coyote_pi.players.roster import LEVELS, player
from coyote_pi.web.setup import Field
from coyote_pi.words.translator import Translator

ROOT = Path(__file__).parents[2]


def _flat(text: str) -> str:
    """``text`` with every run of white space (a wrapped line, help's columns) one space."""
    return " ".join(text.split())


def test_the_list_is_the_table_s_levels_then_the_baselines_and_every_one_plays():
    assert LEVEL_NAMES == TABLE_LEVELS + BASELINES and tuple(LEVELS) == LEVEL_NAMES
    assert levels_text() == "strong, cautious, bluffer; baselines (bench opponents): raise-by-one, half-odds"


def test_the_errors_name_the_levels_as_the_list_does():
    with pytest.raises(ValueError) as seat:
        parse_seats("3:wizard")
    with pytest.raises(ValueError) as level:
        player("wizard")
    assert str(seat.value).endswith(f"(levels: {levels_text()})")
    assert str(level.value).endswith(f"(levels: {levels_text()})")


@pytest.mark.parametrize("command", [run, demo])
def test_help_names_the_levels_as_the_list_does(command):
    parser = argparse.ArgumentParser(prog="coyote-pi")
    command.configure(parser)
    assert f"levels: {levels_text()}" in _flat(parser.format_help())


@pytest.mark.parametrize("doc", ["docs/simulator.md", "docs/players.md"])
def test_the_docs_name_the_levels_as_the_list_does(doc):
    assert f"levels: {levels_text()}" in _flat((ROOT / doc).read_text(encoding="utf-8"))


def test_the_example_configuration_names_the_levels_as_the_list_does():
    lines = (ROOT / "coyote_pi/data/coyote-pi.example.toml").read_text(encoding="utf-8").splitlines()
    assert f"levels: {levels_text()}" in _flat(" ".join(line.split("#", 1)[-1] for line in lines))


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_setup_page_s_help_names_every_level_and_the_baselines_apart(language):
    help_text = Translator(language)("setting.virtual.help", **Field("game", "virtual", "none").bounds)
    table_levels, baselines = ", ".join(TABLE_LEVELS), ", ".join(BASELINES)
    assert table_levels in help_text and baselines in help_text
    assert help_text.index(table_levels) < help_text.index(baselines)  # two lists: the baselines apart
