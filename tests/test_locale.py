"""The gettext catalogs (coyote_pi/locale/): every message in every language, with the same
placeholders, complete plural forms and nothing left fuzzy; Babel compiles each without
a complaint; every key the code and the templates name, as Babel extracts them, exists."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po, write_po

import coyote_pi
from coyote_pi.config import TABLE_RANGES
from coyote_pi.locale import LANGUAGES, catalog, placeholders, plural_keys, template, translations
from coyote_pi.players import level_words
from coyote_pi.words.translator import Translator

PACKAGE = Path(coyote_pi.__file__).parent
#: How the code and the templates ask for a text: what `make messages` extracts with.
KEYWORDS = {"tr": None, "texts": None, "_": None, "gettext": None, "plural": None, "for_seats": None,
            "ngettext": (1, 2)}
METHODS = [("**/web/templates/**.html", "jinja2"), ("**.py", "python")]


def _messages(language: str) -> dict[str, tuple[str, ...]]:
    """key -> its forms (one, or one per plural form) in ``language``."""
    out = {}
    for message in catalog(language):
        if message.id:
            key = message.id[0] if message.pluralizable else message.id
            out[key] = tuple(message.string) if message.pluralizable else (message.string,)
    return out


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_in_every_language_with_the_same_placeholders(language):
    english, given = _messages("en"), _messages(language)
    assert sorted(given) == sorted(english)
    for key, forms in given.items():
        wanted = placeholders(english[key][-1])
        assert all(form.strip() for form in forms), (key, language)
        assert {frozenset(placeholders(form)) for form in forms} == {frozenset(wanted)}, (key, language)
    assert not [message.id for message in catalog(language) if message.id and message.fuzzy]


@pytest.mark.parametrize("language", LANGUAGES)
def test_plural_forms_are_complete_and_babel_compiles_the_catalog(language):
    forms = catalog(language).num_plurals
    assert forms == get_plural(language).num_plurals  # the language's own rule, as Unicode's CLDR has it
    assert forms == {"en": 2, "de": 2, "ru": 3}.get(language, forms)
    for message in catalog(language):
        if message.id and message.pluralizable:
            assert len(message.string) == forms, message.id
    assert list(catalog(language).check()) == []  # what `pybabel compile` checks


def test_russian_counts_take_three_forms():
    ru = translations("ru")
    words = [ru.ngettext("history.rounds", "history.rounds", n).format(rounds=n) for n in (1, 2, 5, 11, 21, 22)]
    assert words == ["1 раунд", "2 раунда", "5 раундов", "11 раундов", "21 раунд", "22 раунда"]
    assert plural_keys() >= {"history.rounds", "history.game", "setup.stands", "login.slow_down"}


#: Placeholders that hold a count or a list of seats: a text with one says one thing or several.
COUNTED = {"seats", "count", "rounds", "players", "seconds", "games"}
#: Counted texts that never speak of one, and why.
ALWAYS_SEVERAL = {"problem.duplicate": "names two seats or more (one seat's duplicate is problem.duplicate_anywhere)",
                  "review.title": "a game has two players or more",
                  "review.no_seat": "a game has two players or more"}


def test_every_counted_text_has_plural_forms_and_english_says_one_in_the_singular():
    """"Seats 2: ok at your seat confirms" for one seat: every text that counts goes
    through the plural forms, in every language, and English's singular is not its plural."""
    english = _messages("en")
    counted = {key for key, forms in english.items() if placeholders(forms[-1]) & COUNTED} - set(ALWAYS_SEVERAL)
    assert counted >= {"guess.waiting", "correct.confirm_hint", "msg.not_confirming", "expl.corrected"}
    assert sorted(counted - plural_keys()) == []
    for key in plural_keys():
        one, several = english[key]
        assert one != several, key
        if "{seats}" in one:  # "seat 2", "seats 2, 5"
            assert "seats" not in one.replace("{seats}", "").lower() and "seats" in several.replace("{seats}", "").lower(), key
    for language in LANGUAGES:
        for key in plural_keys():
            with pytest.raises(KeyError):  # a counted text asked for without its count
                Translator(language)(key, **dict.fromkeys(placeholders(english[key][-1]), 2))


@pytest.mark.parametrize(("language", "one", "several"), [
    ("en", "Seat 2 confirms", "Seats 2, 5 confirm"),
    ("de", "Platz 2 bestätigt", "Plätze 2, 5 bestätigen"),
    ("ru", "Подтверждает место 2", "Подтверждают места 2, 5")])
def test_a_list_of_seats_is_worded_for_its_number(language, one, several):
    tr = Translator(language)
    assert (tr.for_seats("msg.not_confirming", [2]), tr.for_seats("msg.not_confirming", [2, 5])) == (one, several)


def test_every_key_the_code_and_the_templates_name_exists():
    known = set(_messages("en"))
    used: dict[str, str] = {}
    for filename, _line, message, *_ in extract_from_dir(
            PACKAGE, METHODS, keywords=KEYWORDS, options_map={"**/web/templates/**.html": {
                "extensions": "jinja2.ext.i18n"}}):
        for key in message if isinstance(message, tuple) else (message,):
            if key and "." in key and " " not in key:
                used.setdefault(key, filename)
    assert len(used) > 150  # the extraction really found the screens' and the page's keys
    assert {key: where for key, where in used.items() if key not in known} == {}


def test_a_new_language_starts_from_the_template_with_its_own_plural_forms():
    """What `pybabel init -i build/coyote_pi.pot -l pl` makes (docs/translating.md): every
    key, none translated yet, the English in a comment, Polish's three plural forms."""
    written = io.BytesIO()
    write_po(written, template())
    written.seek(0)
    polish = read_po(written, locale="pl")
    assert polish.num_plurals == 3
    assert {m.id if isinstance(m.id, str) else m.id[0] for m in polish if m.id} == set(_messages("en"))
    rounds = polish["history.rounds"]
    assert not any(rounds.string) and "English: {rounds} round | {rounds} rounds" in rounds.auto_comments


def test_the_help_of_a_table_number_names_its_range_from_the_configuration_only():
    # The ranges are config.TABLE_RANGES' alone: a help text writes {low} and {high},
    # never the numbers, so the page cannot tell another range than the table checks
    # (and the virtual seats' help its {levels} and {baselines}, coyote_pi.players' list).
    for key in (message.id for message in catalog("en") if isinstance(message.id, str)):
        if not (key.startswith("setting.") and key.endswith(".help")):
            continue
        setting = key.removeprefix("setting.").removesuffix(".help")
        wanted = {"low", "high"} if setting in TABLE_RANGES else set(level_words()) if setting == "virtual" else set()
        for language in LANGUAGES:
            text = translations(language).gettext(key)
            assert placeholders(text) == wanted, (language, key)
            assert not re.search(r"\([^)]*\d[^)]*(to|bis|до)[^)]*\)", text), (language, key)  # no literal range left
