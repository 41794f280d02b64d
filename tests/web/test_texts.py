"""The page's words: every text in English, German and Russian with the same parameters, no
key that the table's catalogue already has, and every key the templates use exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from coyote_pi.table.i18n import CATALOGUE, LANGUAGES, placeholders
from coyote_pi.web.texts import PAGE, Texts

TEMPLATES = Path(__file__).resolve().parents[2] / "coyote_pi" / "web" / "templates"


@pytest.mark.parametrize("key", sorted(PAGE))
def test_every_text_is_in_every_language_with_the_same_parameters(key):
    assert set(PAGE[key]) == set(LANGUAGES)
    assert len({frozenset(placeholders(text)) for text in PAGE[key].values()}) == 1
    assert key not in CATALOGUE  # one wording per thing: the table's, where it has one


def test_every_key_the_templates_name_exists():
    used = set()
    for template in TEMPLATES.glob("*.html"):
        used |= set(re.findall(r"""\bt\(\s*["']([a-z_.]+)["'][,)]""", template.read_text()))
    assert len(used) > 40
    missing = sorted(key for key in used if key not in PAGE and key not in CATALOGUE)
    assert missing == []


def test_the_page_speaks_the_tables_language_and_falls_back_to_english():
    assert Texts("ru")("nav.history") == "История" and Texts("de")("over.title") == "Spielende"
    assert Texts("xx").language == "en"
