"""Every screen, in every language and with its longest values, fits the 128x64 OLED.

Measured with the fonts the display draws with (:mod:`coyote_pi.devices.render`): no
title or big text is cut short, no word is cut inside, and a page never ends in the
middle of a sentence: a line that fits on one page stays on one page, and a longer one
is cut only after a clause or a sentence.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from unittest.mock import patch

import pytest

from coyote_pi import cards
from coyote_pi.devices.render import ScreenRenderer
from coyote_pi.devices.screen import Screen
from coyote_pi.engine import Bid, Challenge, Correct, Game, GameConfig, IllegalAction, Peek, Undo
from coyote_pi.engine.players import simulate
from coyote_pi.engine.rules import score
from coyote_pi.locale import plural_keys
from coyote_pi.table import screens
from coyote_pi.table.camera_wait import Problem
from coyote_pi.table.selector import Choice, ChoiceKind
from coyote_pi.words.translator import CATALOGUE, LANGUAGES, Translator, placeholders

RENDERER = ScreenRenderer((128, 64))

#: The widest value each text parameter takes at a table (bids of two digits and a sign).
WIDEST = {"seat": 6, "seats": "2, 3, 4, 5", "amount": -10, "bid": 99, "current": 99, "total": -15, "round": 12,
          "count": 6, "challenger": 6, "bidder": 5, "card": "Max 0", "fingerprint": "MMMM-MMMM-MMMM-MMMM",
          "name": "game-0012", "sum": "(-10) + 20 + 15 + 10 + 9 + 8 + 7 + 6"}

#: Every problem the camera reports, with its widest values ...
PROBLEMS = [Problem.of(key, **{name: WIDEST.get(name, "extra") for name in placeholders(CATALOGUE[key]["en"])})
            for key in CATALOGUE if key.startswith("problem.")]
#: ... shown a few at a time, as a camera reports them (six stands, each with a problem, at most).
PROBLEM_SETS = [PROBLEMS[i : i + 3] for i in range(0, len(PROBLEMS), 3)] + [
    [Problem.of("problem.seat_several", seat=seat) for seat in range(1, 7)]]


def _turn_game() -> Game:
    game = Game(GameConfig(players=6, variant="trickster"))
    game.deal_from_deck(seed=1)
    return game


def _guess_game(players: int) -> Game:
    game = Game(GameConfig(players=players, variant="trickster"))
    game.deal_from_deck(seed=2)
    game.apply(Bid(game.turn, 99))
    game.apply(Challenge(game.turn))
    return game


def _verdict_games() -> list[Game]:
    """Whole scripted games: between them every kind of explanation line (seed 4 has a
    Coyote-card draw with ``?`` and ``Max 0`` in the same round)."""
    return [simulate(GameConfig(players=players, variant=variant), seed)
            for players, variant, seed in [(6, "trickster", 1), (6, "trickster", 4), (5, "trickster", 3),
                                           (4, "basic", 11), (3, "trickster", 5), (2, "basic", 3)]]


#: A card that doubles the highest number card, as tests/engine/test_special_cards.py adds it.
DOUBLE = cards.SpecialRule("double", change=cards.Change(target=max, counts=lambda before: 2 * before))
DOUBLE_CARD = '\n[[standard.special]]\nname = "x2"\nrule = "double"\nlabel = "x2"\n'


def screens_of(language: str) -> list[tuple[str, Screen]]:
    """Every screen the table can show, with the widest values."""
    tr = Translator(language)
    out: list[tuple[str, Screen]] = []
    for step, value in [("players", 6), ("variant", "basic"), ("variant", "trickster"), ("language", "ru")]:
        out.append((f"setup {step}", screens.setup_screen(tr, step, value, stands=6)))
    # While the stands are counted: every stand of a full table missing or near the edge.
    framing = [Problem.of(key, seat=seat) for seat in range(1, 7) for key in ("setup.stand_missing", "setup.stand_edge")]
    out.append(("setup stands to set right", screens.setup_screen(tr, "players", 6, stands=6, framing=framing)))
    out.append(("start", screens.start_screen(tr)))
    notice = tr("setup.not_resumed", name=WIDEST["name"])  # the presenter puts it first on these screens
    for name, screen in [("setup", screens.setup_screen(tr, "players", 6, stands=6)), ("start", screens.start_screen(tr)),
                         ("deal", screens.deal_screen(tr, 1, [], manual=False, offer_manual=False))]:
        out.append((f"{name} not resumed", dataclasses.replace(screen, lines=(notice, *screen.lines))))
    for problems in PROBLEM_SETS:
        for manual, offer, no_camera in [(False, False, None), (False, True, None), (True, False, "problem.no_camera")]:
            out.append(("deal", screens.deal_screen(tr, 12, problems, manual=manual, offer_manual=offer,
                                              no_camera=no_camera)))
            out.append(("extra", screens.extra_screen(tr, 6, problems, manual=manual, offer_manual=offer,
                                                no_camera=no_camera)))
        for extra in (False, True):
            out.append(("reveal", screens.reveal_screen(tr, 6, 99, extra=extra, problems=problems, offer_manual=True)))
        out.append(("draw", screens.draw_screen(tr, problems, offer_manual=True)))
    out.append(("no web page", screens.no_page_screen(tr)))
    out.append(("manual offer", screens.offer_screen(tr, 6)))
    out.append(("correction offer", screens.offer_screen(tr, 6, correction=True)))
    for item in ("centre", "extra", "draw", "seat:6"):
        out.append((f"entry {item}", screens.entry_screen(tr, item, "max0")))
    game = _turn_game()
    out.append(("first bid", screens.turn_screen(tr, game, game.turn, Choice(ChoiceKind.BID, -10))))
    game.apply(Bid(game.turn, 89))
    for choice in (Choice(ChoiceKind.BID, 90), Choice(ChoiceKind.CHALLENGE), Choice(ChoiceKind.PEEK), Choice(ChoiceKind.COYOTE_CARD)):
        out.append((f"turn {choice.kind}", screens.turn_screen(tr, game, game.turn, choice)))
    game.apply(Peek(game.turn))
    out.append(("must raise", screens.turn_screen(tr, game, game.turn, Choice(ChoiceKind.BID, -10))))
    out.append(("peek", screens.peek_screen(tr, game, game.turn)))
    for players in (6, 3):
        out.append((f"guess {players}", screens.guess_screen(tr, _guess_game(players))))
    for key in CATALOGUE:
        if key.startswith(("msg.", "refusal.")):
            params = {name: WIDEST[name] for name in placeholders(CATALOGUE[key]["en"]) - {"seats"}}
            text = tr.for_seats(key, (2, 3, 4, 5), **params) if key in plural_keys() else tr(key, **params)
            out.append((key, screens.message_screen(text)))
    for game in _verdict_games():
        for result in game.results:
            final = result is game.results[-1]
            for screen in screens.verdict_screens(tr, game, result, WIDEST["fingerprint"], final=final):
                out.append((f"verdict round {result.round}", screen))
        corrected = Correct("seat:6", "max0", (5, 6))  # the widest item and card a correction names
        for screen in screens.verdict_screens(tr, game, game.results[-1], WIDEST["fingerprint"], final=False,
                                        corrected=corrected):
            out.append(("corrected verdict", screen))
        out += [("over", screen) for screen in screens.over_screens(tr, game, WIDEST["fingerprint"], offer_new_game=True)]
    # Max 0 with no number card in play: only `coyote-pi resolve` can score that, but it has its text.
    nothing = dataclasses.replace(game.results[0], score=score(["max0"], 5))
    out += [("max0 alone", screen) for screen in screens.verdict_screens(tr, game, nothing, "", final=False)]
    # A special card of another edition says what it did in the catalogs' generic words.
    with patch.dict(cards.SPECIAL_RULES, {"double": DOUBLE}):
        deck = cards.deck_from_toml(cards.decks_file_text() + DOUBLE_CARD, "standard")
        for in_play in (["-10", "x2"], ["x2"]):
            doubled = dataclasses.replace(game.results[0], score=score(in_play, 5, deck=deck))
            out += [("another edition", screen) for screen in screens.verdict_screens(tr, game, doubled, "", final=False)]
    return out


def _cut_inside_a_sentence(row: str, next_row: str) -> bool:
    """A page ending with ``row`` cuts a sentence unless it ends a clause or a sentence."""
    if row.endswith((",", ";", ":")):
        return False
    return not (row.endswith((".", "!", "?", "…")) and not re.match(r"[a-zа-яё]", next_row))


def page_breaks_inside_lines(screen: Screen) -> list[str]:
    """Each page end that falls inside a line, where the line would have fitted on one
    page or the cut is not after a clause."""
    pages = RENDERER.pages(screen)
    rows_per_page = max(len(page) for page in pages)
    rows = iter([(number, row) for number, page in enumerate(pages) for row in page])
    found = []
    for line in screen.lines:
        text, line_rows = line.replace(" ", ""), []
        while not line_rows or len("".join(row for _, row in line_rows).replace(" ", "")) < len(text):
            line_rows.append(next(rows))  # the rows this line was wrapped into
        assert "".join(row for _, row in line_rows).replace(" ", "") == text
        for (page, row), (next_page, next_row) in itertools.pairwise(line_rows):
            if page != next_page and (len(line_rows) <= rows_per_page or _cut_inside_a_sentence(row, next_row)):
                found.append(f"{row!r} / {next_row!r}")
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_screen_fits_the_128x64_panel_in_every_language(language):
    problems = []
    for name, screen in screens_of(language):
        problems += [f"{name}: {problem}" for problem in RENDERER.overflows(screen)]
        problems += [f"{name}: page cut {cut}" for cut in page_breaks_inside_lines(screen)]
    assert problems == []


def test_the_screens_cover_every_explanation_and_message_text():
    """The widest-value screens above really contain each text (so each was measured)."""
    shown = " | ".join(" ".join([screen.title, screen.big, *screen.lines]) for _, screen in screens_of("en"))
    missing = []
    for key, texts in CATALOGUE.items():
        if key.startswith(("expl.", "eyes.", "verdict.", "guess.", "hint.", "msg.", "refusal.")):
            fragment = max(re.split(r"\{[^}]*\}|: ", texts["en"]), key=len).strip(" :")  # ": " parts a message
            if fragment not in shown:
                missing.append(key)
    assert missing == []


def test_a_verdict_line_that_fits_a_page_is_never_split_between_pages():
    screen = Screen(title="Round 3: why", lines=["Seat 1: 7", "Seat 2: Max 0", "Centre: ?", "Seat 1 loses a closed eye"])
    assert RENDERER.pages(screen) == [["Seat 1: 7", "Seat 2: Max 0", "Centre: ?"], ["Seat 1 loses a closed", "eye"]]


def test_a_fingerprint_too_wide_for_a_row_breaks_after_a_hyphen():
    screen = Screen(title="Game over", lines=["Record WWWW-WWWW-WWWW-WWWW"])
    assert RENDERER.pages(screen) == [["Record", "WWWW-WWWW-", "WWWW-WWWW"]]
    assert RENDERER.overflows(screen) == []


def test_a_line_longer_than_a_page_is_cut_after_a_clause():
    tr = Translator("ru")
    screen = screens.extra_screen(tr, 6, (), manual=False, offer_manual=False)
    pages = RENDERER.pages(screen)
    assert len(pages) > 1
    assert pages[0][-1].endswith(",")  # "… тайно посмотрите," then "положите …" on the next page


def test_one_seat_still_to_guess_is_named_in_the_singular():
    for language, singular in [("en", "Waiting for seat "), ("de", "Es fehlt Platz "), ("ru", "Ждём место ")]:
        lines = screens.guess_screen(Translator(language), _guess_game(3)).lines
        assert lines[-1].startswith(singular)
    assert screens.guess_screen(Translator("en"), _guess_game(5)).lines[-1].startswith("Waiting: seats ")


def test_an_undo_after_an_undo_says_that_undos_do_not_chain():
    game = _turn_game()
    first = game.turn
    game.apply(Bid(first, 5))
    second = game.turn
    game.apply(Bid(second, 6))
    game.apply(Undo(second))  # the latest bid is seat `first`'s 5 again, but raised once already
    with pytest.raises(IllegalAction) as refused:
        game.apply(Undo(first))
    texts = {language: Translator(language).refusal(refused.value.code, refused.value.params) for language in LANGUAGES}
    assert texts == {"en": "Undos do not chain: 5 stays", "de": "Nur einmal zurück: 5 bleibt",
                     "ru": "Двойной отмены нет: 5 остаётся"}
    screen = screens.message_screen(texts["en"])
    assert (screen.title, screen.big) == ("Undos do not chain", "5 stays")


def test_a_message_with_a_long_first_part_is_wrapped_whole_not_cut():
    text = "Not saved (no space left on the device): try again"  # a first part too long for the title
    screen = screens.message_screen(text)
    assert screen.lines == (text,) and RENDERER.overflows(screen) == []


def test_the_card_dial_says_on_its_end_cards_that_it_goes_round():
    for language in ("en", "de", "ru"):
        tr = Translator(language)
        round_hint = screens.entry_screen(tr, "centre", "max0").lines
        assert round_hint == screens.entry_screen(tr, "seat:2", "-10").lines
        assert "Max 0" in round_hint[0] and "-10" in round_hint[0]
        assert screens.entry_screen(tr, "centre", "5").lines == (tr("entry.hint"),)


def test_one_seat_to_confirm_a_correction_is_named_in_the_singular():
    """"Seats 2: ok at your seat confirms" when the other seat of the challenge is virtual."""
    from coyote_pi.table.correction import Correction, Step

    game = _verdict_games()[-1]
    result = game.results[-1]
    virtual = frozenset({result.bidder})
    correction = Correction(result, virtual=virtual, step=Step.CONFIRM, card_index=3)
    lines = screens.correction_screen(Translator("en"), game, correction).lines
    seat = result.challenger
    assert lines == (f"Seat {seat}: ok at your seat confirms. -/+: change", "minus+plus: cancel")
    both = screens.correction_screen(Translator("de"), game, Correction(result, step=Step.CONFIRM)).lines
    assert both[0].startswith(f"Plätze {', '.join(map(str, sorted((result.bidder, seat))))}: ok am eigenen Platz")


def test_the_seats_asked_to_confirm_a_correction_are_those_still_awaited():
    """Once one seat of the challenge confirmed, the screen asks only the other."""
    from coyote_pi.table.correction import Correction, Step

    game = _verdict_games()[-1]
    result = game.results[-1]
    correction = Correction(result, step=Step.CONFIRM, confirmed=frozenset({result.bidder}))
    screen = screens.correction_screen(Translator("en"), game, correction)
    assert screen.lines[0] == f"Seat {result.challenger}: ok at your seat confirms. -/+: change"
    assert str(result.bidder) not in " ".join(screen.lines)
