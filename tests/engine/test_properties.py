"""Property-based tests: whole games of random legal play, both variants, 2 to 6 players.

Hypothesis chooses every event among the legal ones: the cards of each round (a virtual
deck, or a physical table where the camera misses some seat cards and the face-down
cards are observed at the reveal), bids close together or far apart (a negative first
bid too), challenges, peeks, Coyote cards, Trickster guesses and undos. Before many
events it also tries an illegal one, which must be refused without changing anything.
After every event the invariants below must hold; at the end exactly one seat is left,
and replaying the history (or the game record on disk) gives back the same state.
"""

from __future__ import annotations

import itertools
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import event as count_in_statistics
from hypothesis import strategies as st

from coyote_pi.cards import ALL_CARDS
from coyote_pi.engine import (
    BASIC,
    BIDDING,
    DEAL,
    DRAW,
    GUESSING,
    OVER,
    REVEAL,
    TRICKSTER,
    Bid,
    Challenge,
    Deal,
    DrawReplacement,
    Game,
    GameConfig,
    Guess,
    IllegalAction,
    Peek,
    Reveal,
    Undo,
    UseCoyoteCard,
    arbiter_state,
    public_view,
    seat_view,
)
from coyote_pi.record import RecordedGame, read_record

#: Beyond this many bids in a round the seat whose turn it is challenges (when it may),
#: so that every game ends in a bounded number of events.
MAX_BIDS_PER_ROUND = 10
#: Undos allowed per game (each one undoes progress).
MAX_UNDOS = 6

GAME_SETTINGS = settings(
    max_examples=40,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

configs = st.integers(min_value=2, max_value=6).flatmap(
    lambda players: st.builds(
        GameConfig,
        players=st.just(players),
        variant=st.sampled_from([BASIC, TRICKSTER]),
        start_seat=st.integers(min_value=1, max_value=players),
    )
)


class Table:
    """Plays one game with hypothesis-chosen events and knows the truth of each round:
    the order of its 17 cards (seats, centre, then the deck top first), who peeked and
    who drew with the Coyote card."""

    def __init__(self, data, game: Game, apply=None) -> None:
        self.data = data
        self.game = game
        self.apply = apply or game.apply
        self.order: list[str] = []
        self.round_seats: tuple[int, ...] = ()
        self.peeked: set[int] = set()
        self.drawer: int | None = None
        self.undos = 0
        self.refusals = 0

    # ------------------------------------------------------------------ choosing events

    def draw(self, strategy, label: str):
        return self.data.draw(strategy, label=label)

    def next_event(self):
        game = self.game
        if game.phase == DEAL:
            return self._deal()
        seats = len(self.round_seats)
        extra_used = public_view(game)["extra_in_play"]
        if game.phase == REVEAL:
            return Reveal(centre=self.order[seats], extra=self.order[seats + 1] if extra_used else None,
                          seats=dict(zip(self.round_seats, self.order)))
        if game.phase == DRAW:
            return DrawReplacement(self.order[seats + 1 + extra_used])
        legal = game.legal()
        if game.phase == GUESSING:
            return Guess(self.draw(st.sampled_from(legal.seats), "guesser"),
                         self.draw(st.sampled_from(legal.guess_options), "guess"))
        assert game.phase == BIDDING
        return self._turn(legal)

    def _deal(self) -> Deal:
        seats = self.game.active_seats
        self.order = list(self.draw(st.permutations(ALL_CARDS), "cards of the round"))
        self.round_seats, self.peeked, self.drawer = seats, set(), None
        order, n = self.order, len(seats)
        if not self.draw(st.booleans(), "physical table"):
            return Deal(seats=dict(zip(seats, order)), centre=order[n], deck=tuple(order[n + 1:]))
        unread = self.draw(st.sets(st.sampled_from(seats)), "seat cards the camera missed")
        return Deal(seats={s: None if s in unread else card for s, card in zip(seats, order)})

    def _turn(self, legal):
        seat = legal.seats[0]
        bids = public_view(self.game)["bids"]
        last = self.game.history[-1]
        options = ["bid"]
        if legal.challenge:
            if len(bids) >= MAX_BIDS_PER_ROUND:
                return Challenge(seat)
            options.append("challenge")
        if legal.peek:
            options.append("peek")
        if legal.coyote_card:
            options.append("coyote card")
        if isinstance(last, Bid) and self.undos < MAX_UNDOS:
            options.append("undo")
        choice = self.draw(st.sampled_from(options), "action")
        if choice == "challenge":
            return Challenge(seat)
        if choice == "peek":
            return Peek(seat)
        if choice == "coyote card":
            return UseCoyoteCard(seat)
        if choice == "undo":
            return Undo(last.seat)
        if legal.min_bid is None:
            return Bid(seat, self.draw(st.integers(min_value=-40, max_value=60), "first bid"))
        step = self.draw(st.one_of(st.integers(0, 2), st.integers(3, 100)), "raise above the minimum")
        return Bid(seat, legal.min_bid + step)

    def illegal_events(self) -> list:
        """Events the rules refuse right now (``legal()`` says so)."""
        game, legal = self.game, self.game.legal()
        players = game.config.players
        last = game.history[-1] if game.history else None
        events = [Bid(0, 5), Bid(players + 1, 5), Deal(seats={})]
        last_bidder = last.seat if isinstance(last, Bid) and game.phase == BIDDING else None
        events += [Undo(s) for s in range(1, players + 1) if s != last_bidder]
        if game.phase == BIDDING:
            seat = legal.seats[0]
            events += [Bid(s, 10**6) for s in range(1, players + 1) if s != seat]
            events += [Guess(seat, seat), DrawReplacement("5"), Reveal(centre="5")]
            if legal.min_bid is not None:
                events.append(Bid(seat, legal.min_bid - 1 - self.draw(st.integers(0, 30), "too low by")))
            for allowed, event in ((legal.challenge, Challenge(seat)), (legal.peek, Peek(seat)),
                                   (legal.coyote_card, UseCoyoteCard(seat))):
                if not allowed:
                    events.append(event)
        elif game.phase == GUESSING:
            outsiders = [s for s in range(1, players + 1) if s not in legal.seats]
            events += [Guess(s, legal.guess_options[0]) for s in outsiders]
            events += [Guess(legal.seats[0], s) for s in range(1, players + 1) if s not in legal.guess_options]
            events.append(Bid(legal.seats[0], 10**6))
        elif game.phase == DEAL:
            events += [Bid(game.next_start, 1), Challenge(game.next_start), Peek(game.next_start)]
        return events

    # ------------------------------------------------------------------ playing

    def try_illegal(self, snapshot) -> None:
        event = self.draw(st.sampled_from(self.illegal_events()), "illegal event")
        before = snapshot(self.game)
        try:
            self.apply(event)
        except IllegalAction as error:
            assert error.code and str(error), f"{event!r} refused without a code or message"
        else:
            raise AssertionError(f"{event!r} was accepted in phase {self.game.phase}: {self.game.legal()}")
        assert snapshot(self.game) == before, f"the refused {event!r} changed the game"
        self.refusals += 1

    def play(self, snapshot, after_event) -> None:
        kinds = set()
        while self.game.phase != OVER:
            if self.draw(st.integers(0, 4), "try an illegal event first") == 0:
                self.try_illegal(snapshot)
            event = self.next_event()
            self.apply(event)
            if isinstance(event, Peek):
                self.peeked.add(event.seat)
            elif isinstance(event, UseCoyoteCard):
                self.drawer = event.seat
            elif isinstance(event, Undo):
                self.undos += 1
            kinds.add(type(event).__name__ if not isinstance(event, Deal) or event.deck else "physical Deal")
            after_event(self)
        for kind in sorted(kinds):  # shown by pytest --hypothesis-show-statistics
            count_in_statistics(f"the game had: {kind}")
        count_in_statistics(f"refused illegal events: {'none' if not self.refusals else 'some'}")


# ---------------------------------------------------------------------- invariants


def check_invariants(table: Table) -> None:
    game = table.game
    view = public_view(game)
    eyes = {int(s): tuple(e) for s, e in view["eyes"].items()}
    for seat, (opened, closed) in eyes.items():
        assert opened >= 0 and closed >= 0 and opened + closed <= 3, f"seat {seat} has eyes {opened, closed}"
    assert list(game.active_seats) == [s for s, e in eyes.items() if sum(e) > 0]
    assert (len(game.active_seats) == 1) == (game.phase == OVER)

    bids = [amount for _, amount in view["bids"]]
    assert all(low < high for low, high in itertools.pairwise(bids)), f"bids do not rise: {bids}"

    current = arbiter_state(game)["current_round"]
    if game.phase in (DEAL, OVER) or current is None:
        for seat in eyes:
            assert seat_view(game, seat).known_cards() == []  # nothing is open between rounds
        return
    n = len(table.round_seats)
    truth = dict(zip(table.round_seats, table.order))
    centre, extra = table.order[n], table.order[n + 1]
    extra_in_play = view["extra_in_play"]
    known = [c for c in current["seats"].values() if c is not None]
    known += [c for c in (current["centre"], current["extra"]) if c is not None]
    assert len(known) == len(set(known)), f"a card is in play twice: {known}"
    assert all(current["seats"][str(s)] in (None, truth[s]) for s in truth)
    assert current["centre"] in (None, centre) and current["extra"] in (None, extra)

    in_play = n + 1 + extra_in_play
    for seat in eyes:
        seen = seat_view(game, seat)
        cards = seen.known_cards()
        assert seat not in seen.others and truth.get(seat) not in cards, f"seat {seat} sees its own card"
        assert all(truth[s] == card for s, card in seen.others.items())
        assert seen.peeked == (seat in table.peeked)
        if seat not in table.peeked:
            assert centre not in cards, f"seat {seat} sees the centre card without peeking"
        if extra_in_play and table.drawer != seat:
            assert extra not in cards, f"seat {seat} sees another seat's Coyote-card draw"
        if seat in truth:
            assert seen.unknown_count() == in_play - len(cards)


def check_replay(table: Table, snapshot) -> None:
    replayed = Game.from_events(table.game.config, table.game.history)
    assert snapshot(replayed) == snapshot(table.game)


def check_end(game: Game) -> None:
    assert game.phase == OVER
    eyes = {int(s): tuple(e) for s, e in public_view(game)["eyes"].items()}
    assert game.active_seats == (game.winner,)
    losers = [s for s in eyes if s != game.winner]
    assert [s for s, e in eyes.items() if sum(e) == 0] == losers
    assert sorted(r.eliminated for r in game.results if r.eliminated is not None) == losers
    # Every round takes exactly one peek card from its loser, and nothing gives one back.
    assert len(game.results) == 3 * game.config.players - sum(eyes[game.winner])
    # No next round: the final state names no seat to start it or to hold the Coyote card.
    assert (public_view(game)["next_start"], public_view(game)["coyote_holder"]) == (None, None)


# ---------------------------------------------------------------------- the properties


@GAME_SETTINGS
@given(config=configs, data=st.data())
def test_random_legal_play_keeps_every_invariant_and_replays(snapshot, config, data):
    table = Table(data, Game(config))

    def after_event(table):
        check_invariants(table)
        check_replay(table, snapshot)

    table.play(snapshot, after_event)
    check_end(table.game)


@GAME_SETTINGS
@given(config=configs, data=st.data())
def test_a_game_written_to_its_record_reads_back_to_the_same_state(snapshot, config, data):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.jsonl"
        recorded = RecordedGame.start(path, config)

        def apply(event):
            before = path.stat().st_size
            try:
                recorded.apply(event)
            except IllegalAction:
                assert path.stat().st_size == before, "a refused event was written to the record"
                raise
            assert path.stat().st_size > before, "an accepted event is not in the record"

        table = Table(data, recorded.game, apply)
        checkpoint = data.draw(st.integers(min_value=1, max_value=40), label="event to read the record at")

        def after_event(table):
            if len(table.game.history) == checkpoint:  # the record of an unfinished game, as the table reads it
                assert snapshot(read_record(path, private=True).game) == snapshot(table.game)

        table.play(snapshot, after_event)
        record = read_record(path)
        assert snapshot(record.game) == snapshot(table.game)
        assert len(record.undone) == table.undos
        check_end(record.game)
