"""The page's words come from the same catalogs as the table's (tests/test_locale.py checks
them all, and that every key a template names exists); the page speaks the table's
language and falls back to English."""

from __future__ import annotations

from coyote_pi.web.texts import Texts


def test_the_page_speaks_the_tables_language_and_falls_back_to_english():
    assert Texts("ru")("nav.history") == "История" and Texts("de")("over.title") == "Spielende"
    assert Texts("xx").language == "en" and Texts(None)("nav.history") == "History"
    assert Texts("ru").plural("history.rounds", 22, rounds=22) == "22 раунда"
