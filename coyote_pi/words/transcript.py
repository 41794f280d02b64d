"""Plain-text transcripts of simulated games: every event, state, legal action, per-seat
view and resolution. The golden playthroughs in tests/golden/ are such transcripts;
any change to the rules' behaviour shows up as a readable diff there.

A transcript is a developer's English: an event or a state in one line here
(:func:`describe_event`, which the web page's printable transcript shares), each verdict
in the catalogs' English words (:func:`~coyote_pi.words.verdict.explanation_lines`), the
one explanation of a verdict the OLED and the page show too. It lives with the words, not
in the engine, because the engine imports nothing above it and has no words for a verdict.

Regenerate them (then review the diff) with::

    make golden        # or: python -m coyote_pi.commands.golden tests/golden
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import assert_never

from coyote_pi import cards
from coyote_pi.engine import events
from coyote_pi.engine.game import BASIC, DEAL, OVER, TRICKSTER, Game, GameConfig
from coyote_pi.engine.players import simulate
from coyote_pi.engine.views import seat_view
from coyote_pi.words.translator import ENGLISH
from coyote_pi.words.verdict import explanation_lines

#: The golden games: (file name, config, seed, physical). Chosen to cover both variants,
#: 2 to 6 players, peeks, the Coyote card, ``?``, ``Max 0``, and a physical table whose
#: cards are observed (deal, reveal, draw for ``?``) rather than dealt from a known deck.
GOLDEN_GAMES = [
    ("basic-2p-seed3.txt", GameConfig(players=2, variant=BASIC, start_seat=1), 3, False),
    ("basic-4p-seed11.txt", GameConfig(players=4, variant=BASIC, start_seat=3), 11, False),
    ("trickster-3p-seed5.txt", GameConfig(players=3, variant=TRICKSTER, start_seat=2), 5, False),
    ("trickster-6p-seed8.txt", GameConfig(players=6, variant=TRICKSTER, start_seat=6), 8, False),
    ("physical-trickster-4p-seed21.txt", GameConfig(players=4, variant=TRICKSTER, start_seat=1), 21, True),
]


def _cards(mapping: Mapping[int, str | None]) -> str:
    return " ".join(f"{s}={cards.display_name(c) if c else '?unknown'}" for s, c in sorted(mapping.items()))


def describe_event(event: events.Event) -> str:
    """One line for people, e.g. ``seat 2 bids 13``: every event the record holds, a
    correction too (the type checker sees that no kind of event is left out)."""
    match event:
        case events.Deal():
            deck = "unknown" if event.deck is None else " ".join(cards.display_name(c) for c in event.deck)
            centre = cards.display_name(event.centre) if event.centre else "face down, unknown"
            return f"deal: seats {_cards(event.seats)} | centre {centre} | deck {deck}"
        case events.Bid():
            return f"seat {event.seat} bids {event.amount}"
        case events.Challenge():
            return f"seat {event.seat} says Coyote! (challenge)"
        case events.Peek():
            return f"seat {event.seat} peeks at the centre card"
        case events.UseCoyoteCard():
            return f"seat {event.seat} uses the Coyote card"
        case events.Guess():
            return f"seat {event.seat} guesses seat {event.winner} wins"
        case events.Reveal():
            extra = f", extra {cards.display_name(event.extra)}" if event.extra else ""
            seats = f", seats {_cards(event.seats)}" if event.seats else ""
            return f"reveal: centre {cards.display_name(event.centre)}{extra}{seats}"
        case events.DrawReplacement():
            return f"drawn for ?: {cards.display_name(event.card)}"
        case events.Undo():
            return f"seat {event.seat} takes back its bid"
        case events.Correct():
            confirmed = " and ".join(str(seat) for seat in event.confirmed_by)
            place = _PLACE_WORDS.get(event.item) or f"seat {event.seat}'s card"
            return f"correction: {place} is {cards.display_name(event.card)} (confirmed by seats {confirmed})"
        case _:
            assert_never(event)


#: A correction's place in words, but for a seat's card (``seat:2``: "seat 2's card").
_PLACE_WORDS: dict[str, str] = {events.CardPlace.CENTRE: "the centre card",
                                events.CardPlace.EXTRA: "the Coyote card's draw",
                                events.CardPlace.DRAW: "the card drawn for ?"}


def describe_state(game: Game) -> list[str]:
    eyes = " ".join(f"{s}={e.open}o{e.closed}c" for s, e in game.eyes.items())
    r = game.round
    bid = "-" if r is None or r.bid is None else f"{r.bid} (seat {r.bidder})"
    lines = [f"  state: phase={game.phase} round={game.round_number} turn={game.turn or '-'} bid={bid}",
             f"  eyes: {eyes}   coyote card: {game.coyote_holder or '-'}",
             f"  legal: {game.legal().describe()}"]
    if r is not None and game.phase not in (DEAL, OVER):
        for seat in game.active_seats:
            view = seat_view(game, seat)
            known = _cards(view.others)
            centre = cards.display_name(view.centre) if view.centre else "-"
            draw = cards.display_name(view.coyote_card_draw) if view.coyote_card_draw else "-"
            lines.append(f"  view {seat}: sees {known}; centre {centre}; own draw {draw}; "
                         f"unknown in play {view.unknown_count()}")
    return lines


def transcript(config: GameConfig, seed: int | str, physical: bool = False) -> str:
    """The full transcript of the scripted game with ``config`` and ``seed``."""
    table = "a physical table (cards observed)" if physical else "a virtual deck"
    lines = [
        f"# coyote-pi golden playthrough: {config.players} players, {config.variant}, "
        f"start seat {config.start_seat}, seed {seed}, {table}",
        "# regenerate with `make golden` and review the diff",
    ]
    count = 0

    def on_event(game: Game, event: events.Event) -> None:
        nonlocal count
        count += 1
        lines.append(f"[{count}] {describe_event(event)}")
        if game.results and game.results[-1].round == game.round_number and game.phase in (DEAL, OVER):
            lines.extend(f"  | {line}" for line in explanation_lines(ENGLISH, game.results[-1]))
        lines.extend(describe_state(game))

    game = simulate(config, seed, on_event=on_event, physical=physical)
    lines.append(f"winner: seat {game.winner} after {game.round_number} rounds")
    return "\n".join(lines) + "\n"

