"""Every player-facing text exists in English, German and Russian, and the shipped font draws it."""

from __future__ import annotations

import pytest

from coyote_pi.devices.render import ScreenRenderer, load_font
from coyote_pi.engine.errors import IllegalAction, Refusal
from coyote_pi.locale import plural_keys
from coyote_pi.table import screens
from coyote_pi.words.translator import _REFUSALS, CATALOGUE, LANGUAGE_NAMES, LANGUAGES, Translator, placeholders

from .conftest import fast_sim, play, table_config

#: Engine refusal codes no button can cause (bad files, setup, observations the camera
#: settles); they show the generic "not possible now" if they ever reach the screen.
NOT_FROM_BUTTONS = {Refusal.BAD_EVENT, Refusal.BAD_CARD, Refusal.BAD_CONFIG, Refusal.GAME_OVER, Refusal.BAD_DEAL,
                    Refusal.WRONG_PHASE, Refusal.REPLACEMENT_NEEDED, Refusal.BAD_GUESS, Refusal.BAD_BID,
                    Refusal.BAD_ODDS_QUERY}


def test_every_key_has_all_three_languages_with_the_same_parameters():
    for key, texts in CATALOGUE.items():
        assert set(texts) == set(LANGUAGES), key
        wanted = placeholders(texts["en"])
        for language in LANGUAGES:
            assert texts[language].strip(), (key, language)
            assert placeholders(texts[language]) == wanted, (key, language)


def test_every_text_formats_in_every_language():
    for language in LANGUAGES:
        tr = Translator(language)
        for key, texts in CATALOGUE.items():
            params = {name: 3 for name in placeholders(texts["en"])}
            text = tr.plural(key, 3, **params) if key in plural_keys() else tr(key, **params)
            assert "{" not in text


def _notdef(font) -> bytes:
    """What the font draws for a character it does not have (a private-use code point)."""
    return bytes(font.getmask("\ue000"))


@pytest.mark.parametrize("style", ["regular", "bold"])
def test_the_shipped_font_draws_every_character_of_every_language(style):
    font = load_font(style, 12)
    missing = _notdef(font)
    characters = {c for texts in CATALOGUE.values() for text in texts.values() for c in text}
    characters |= {c for name in LANGUAGE_NAMES.values() for c in name}
    undrawn = sorted(c for c in characters if not c.isspace() and bytes(font.getmask(c)) == missing)
    assert undrawn == []
    assert any("\u0400" <= c <= "\u04ff" for c in characters)  # Cyrillic is really in there


def test_russian_screens_render_on_a_128x64_panel():
    from coyote_pi.engine import Game, GameConfig

    tr = Translator("ru")
    game = Game(GameConfig(players=3, variant="trickster"))
    game.deal_from_deck(seed=1)
    renderer = ScreenRenderer((128, 64))
    from coyote_pi.table.selector import Choice, ChoiceKind

    for screen in (screens.turn_screen(tr, game, 1, Choice(ChoiceKind.CHALLENGE)), screens.start_screen(tr),
                   screens.setup_screen(tr, "language", "ru"), screens.message_screen(tr("msg.not_your_turn", seat=4))):
        image = renderer.render(screen)
        assert image.getbbox() is not None  # something was drawn


def test_every_refusal_a_button_can_cause_has_its_own_short_message():
    assert set(Refusal) - set(_REFUSALS) == NOT_FROM_BUTTONS, set(Refusal) - set(_REFUSALS) ^ NOT_FROM_BUTTONS
    tr = Translator("de")
    error = IllegalAction("seat 2 must bid more than 14, not 12", code=Refusal.BID_TOO_LOW, seat=2, current=14)
    assert tr.refusal(error.code, error.params) == "Mehr als 14 bieten"
    assert tr.refusal(Refusal.GAME_OVER, {}) == "Jetzt nicht möglich"


@pytest.mark.parametrize("language,word", [("de", "Runde"), ("ru", "Раунд")])
def test_a_whole_game_is_shown_in_the_chosen_language(tmp_path, language, word):
    played = play(table_config(tmp_path, 2, language=language), sim=fast_sim(6))
    texts = played.spy.texts()
    assert any(word in text for text in texts)
    english = {CATALOGUE[key]["en"] for key in ("verdict.continue", "over.title", "deal.big")}
    assert not english & set(texts)
    assert played.record.meta["language"] == language


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_turn_fits_one_page_in_every_language(language):
    """The screen players read most never pages: whose turn, the bid, the choice, what ok does."""
    from coyote_pi.engine import Bid, Game, GameConfig, Peek
    from coyote_pi.table.selector import Choice, ChoiceKind

    tr, renderer = Translator(language), ScreenRenderer((128, 64))
    opening = Game(GameConfig(players=6, variant="trickster"))
    opening.deal_from_deck(seed=1)
    shown = [screens.turn_screen(tr, opening, 1, Choice(ChoiceKind.BID, -120))]
    raised = opening.copy()
    raised.apply(Bid(1, 20))
    shown += [screens.turn_screen(tr, raised, 2, Choice(kind, 121 if kind == "bid" else None))
                for kind in ("bid", "challenge", "peek", "coyote_card")]
    raised.apply(Peek(2))
    shown += [screens.turn_screen(tr, raised, 2, Choice("bid", 121)), screens.entry_screen(tr, "seat:3", "max0")]
    assert [renderer.page_count(screen) for screen in shown] == [1] * len(shown)
