"""A special card is one rule in one registry, a deck is data.

A new special card, ``x2``, that doubles the highest number card, is added here the way
docs/architecture.md's "How to add a special card" says: one entry in the registry
(``coyote_pi/cards.py``'s ``SPECIAL_RULES``), one entry in the decks file
(``coyote_pi/data/decks.toml``) and its marker's id in the marker file. Nothing else is
touched, and the engine's scoring, a whole game, the exact odds, the scripted and the
virtual players, the game record, the verdict's words and the markers all handle it. A new edition is
data alone (docs/architecture.md's "How to add an edition").
"""

from __future__ import annotations

import re
from itertools import combinations
from pathlib import Path

import pytest

from coyote_pi import cards
from coyote_pi.cards import Change, SpecialRule, deck_from_toml, decks_file_text
from coyote_pi.engine import Bid, Challenge, DrawReplacement, Game, GameConfig, IllegalAction, SeatView
from coyote_pi.engine import game as game_module
from coyote_pi.engine.errors import Refusal
from coyote_pi.engine.events import from_dict
from coyote_pi.engine.odds import total_distribution
from coyote_pi.engine.players import ScriptedPlayer, next_scripted_event, simulate
from coyote_pi.engine.rules import Adjustment, score
from coyote_pi.players.knowledge import my_reach
from coyote_pi.players.roster import player
from coyote_pi.players.seating import play
from coyote_pi.players.turn import BIDDING, TurnView
from coyote_pi.record import RecordedGame, read_record
from coyote_pi.vision.markerset import MarkerFileError, marker_file_text, parse_marker_file
from coyote_pi.words.translator import Translator
from coyote_pi.words.verdict import explanation_lines, score_lines

DOCS = Path(__file__).resolve().parents[2] / "docs" / "architecture.md"

#: The registry entry.
DOUBLE = SpecialRule("double", change=Change(target=max, counts=lambda before: 2 * before))
#: The data entry, appended to the packaged decks file.
X2_ENTRY = '\n[[standard.special]]\nname = "x2"\nrule = "double"\nlabel = "x2"\nspellings = ["double"]\n'
#: Its marker: an ArUco id no other role has, and a QR payload.
X2_MARKERS = {'"card:max0" = 16\n': '"card:x2" = 18\n', '"card:max0" = "CY card max0"\n': '"card:x2" = "CY card x2"\n'}


@pytest.fixture
def deck(monkeypatch):
    """The standard deck with ``x2`` added: one registry entry, one data entry."""
    monkeypatch.setitem(cards.SPECIAL_RULES, DOUBLE.name, DOUBLE)
    return deck_from_toml(decks_file_text() + X2_ENTRY, "standard")


def test_the_card_parses_and_formats_as_its_deck_says(deck):
    assert deck.size == cards.STANDARD.size + 1 and deck.names[-1] == "x2"
    assert [deck.parse(text).name for text in ("x2", " X2 ", "Double", "max 0", "+7")] == ["x2", "x2", "x2", "max0", "7"]
    assert all(deck.parse(card.display) == card for card in deck.cards)  # the round trip
    with pytest.raises(cards.CardError):
        cards.parse_card("x2")  # the standard deck is as it was


def test_scoring_applies_the_rule_and_records_it_as_an_adjustment(deck):
    doubled = score(["5", "x2", "10"], 25, deck=deck)
    assert (doubled.total, doubled.adjustments, doubled.bid_holds) == (25, (Adjustment("x2", "10", 20),), True)
    assert [c.value for c in doubled.counted] == [5, 0, 20]
    assert "x2: 10 counts 20" in score_lines(Translator("en"), doubled)  # the catalogs' generic words
    # Rules apply in the deck's order: Max 0 zeroes the 10 first, so doubling it leaves 0.
    both = score(["5", "max0", "x2", "10"], 0, deck=deck)
    assert (both.total, both.adjustments) == (5, (Adjustment("max0", "10", 0), Adjustment("x2", "10", 0)))
    # Drawn for ?, it is in play like any card.
    drawn = score(["?", "-5", "4"], 0, replacement="x2", deck=deck)
    assert (drawn.total, drawn.adjustments) == (3, (Adjustment("x2", "4", 8),))
    assert score(["x2", "?"], 0, replacement="max0", deck=deck).total == 0  # no number card to change
    with pytest.raises(IllegalAction):
        score(["5", "x2"], 3)  # not a card of the standard deck


def test_the_exact_odds_count_every_outcome_with_the_new_rule(deck):
    known, unknown = ["x2", "3"], 2
    pool = [card for card in deck.names if card not in known]
    expected: dict[int, int] = {}
    for drawn in combinations(pool, unknown):
        in_play = [*known, *drawn]
        rest = [card for card in pool if card not in drawn]
        for replacement in (rest if "?" in in_play else [None] * len(rest)):
            total = score(in_play, 0, replacement=replacement, deck=deck).total
            expected[total] = expected.get(total, 0) + 1
    distribution = total_distribution(known, unknown, deck)
    assert distribution.counts == expected and distribution.outcomes == sum(expected.values())
    assert max(expected) > max(total_distribution(["3"], 2).counts)  # doubling 20 reaches past the old highest


def test_a_whole_game_and_its_scripted_and_virtual_players_play_the_new_deck(deck):
    config = GameConfig(players=4, variant="trickster", deck=deck)
    results = [result for seed in range(6) for result in simulate(config, seed).results]
    assert any(adjustment.by == "x2" for result in results for adjustment in result.score.adjustments)
    lineup = {seat: player("strong") for seat in range(1, 5)}
    assert play(config, lineup, "x2").winner is not None
    view = SeatView(seat=1, round=1, phase=BIDDING, turn=1, bid=None, bidder=None,
                    eyes={1: (2, 1), 2: (2, 1), 3: (2, 1)}, others={2: "x2", 3: "10"}, peeked=False, centre=None,
                    coyote_card_draw=None, extra_in_play=False, coyote_holder=None, active_others=(2, 3), deck=deck)
    assert ScriptedPlayer(deck=deck).estimate(view) == 20 + 3.5 * view.unknown_count()  # the 10 counts 20
    turn = TurnView(seat=view, phase=BIDDING, variant="trickster", bids=(), min_bid=None, may_challenge=False,
                    may_use_coyote_card=False, coyote_card_used_this_turn=False)
    odds = total_distribution(["10", "x2"], view.unknown_count(), deck)
    assert [my_reach(turn).at_least(bid) for bid in range(-20, 70)] == pytest.approx(
        [float(odds.probability_at_least(bid)) for bid in range(-20, 70)])


def test_a_record_of_the_new_deck_replays_and_a_card_the_deck_lacks_is_refused_plainly(deck, monkeypatch, tmp_path):
    """The record reads each line's cards with the deck its setup names (here the decks
    file with the new entry): ``x2`` is read, a card the deck lacks gets one clear line."""
    monkeypatch.setattr(game_module, "load_deck", lambda edition: deck)  # decks.toml with X2_ENTRY
    path = tmp_path / "x2.jsonl"
    table = RecordedGame.start(path, GameConfig(players=3, deck=deck))
    players = {seat: ScriptedPlayer(deck=deck) for seat in table.game.eyes}
    while (event := next_scripted_event(table.game, players, "x2")) is not None:
        table.apply(event)
    table.close()
    assert '"x2"' in path.read_text(encoding="utf-8")  # a deal names it (the rest of the deck, at least)
    assert read_record(path).game.winner == table.game.winner is not None
    assert from_dict({"type": "draw", "card": "x2"}, deck) == DrawReplacement("x2")
    with pytest.raises(IllegalAction, match=r'"x3" is not a Coyote card \(cards: .*, Max 0, x2\)') as caught:
        from_dict({"type": "draw", "card": "x3"}, deck)
    assert caught.value.code == Refusal.BAD_EVENT
    with pytest.raises(IllegalAction, match='"x2" is not a Coyote card'):
        from_dict({"type": "draw", "card": "x2"})  # the standard deck's event


@pytest.mark.parametrize("language,words", [("en", "x2: 10 counts 20"), ("de", "x2: 10 zählt 20"),
                                            ("ru", "x2: 10 считается 20")])
def test_the_verdict_says_what_the_new_card_did_in_every_language(deck, language, words):
    game = Game(GameConfig(players=2, deck=deck))
    game.apply(game.virtual_deal(["x2", "10", "3", *(card for card in deck.names if card not in ("x2", "10", "3"))]))
    game.apply(Bid(1, 30))
    game.apply(Challenge(2))
    assert (game.last_result.score.total, game.last_result.winner) == (23, 2)
    assert words in explanation_lines(Translator(language), game.last_result)


def test_the_markers_map_the_new_card(deck):
    text = marker_file_text()
    for line, added in X2_MARKERS.items():
        text = text.replace(line, line + added)
    assert parse_marker_file(text, "aruco", deck).role_of(18) == "card:x2"
    assert parse_marker_file(text, "qr", deck).role_of("CY card x2") == "card:x2"
    with pytest.raises(MarkerFileError, match="card:x2"):
        parse_marker_file(marker_file_text(), "aruco", deck)  # a deck's card without a marker is refused


def test_an_edition_is_data_and_every_size_follows_from_its_deck():
    """A smaller edition, only in the decks file: games deal it, its size is its own."""
    small = deck_from_toml('[small]\nnumbers = [-5, 0, 1, 2, 3, 4, 5, 10]\n\n[[small.special]]\nname = "max0"\n'
                           'rule = "max0"\nlabel = "Max 0"\n', "small")
    assert small.size == 9 and small.drawn_for == frozenset()
    game = simulate(GameConfig(players=3, deck=small), "small")
    assert game.winner is not None and {card for result in game.results for card in result.seat_cards.values()} <= set(
        small.names)
    assert sum(total_distribution(["max0"], 2, small).counts.values()) == 28 * 6  # C(8, 2) sets, 6 cards left each


def test_the_architecture_note_names_the_files_a_new_card_and_a_new_edition_take():
    text = DOCS.read_text(encoding="utf-8")
    card = text.split("## How to add a special card", 1)[1].split("\n## ", 1)[0]
    edition = text.split("## How to add an edition", 1)[1].split("\n## ", 1)[0]
    assert set(re.findall(r"`(coyote_pi/[\w/.]+)`", card)) == {
        "coyote_pi/cards.py", "coyote_pi/data/decks.toml", "coyote_pi/data/markers.toml"}
    assert set(re.findall(r"`(coyote_pi/[\w/.]+)`", edition)) == {"coyote_pi/data/decks.toml"}
    assert "SPECIAL_RULES" in card and "tests/engine/test_special_cards.py" in card
