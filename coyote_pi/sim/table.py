"""A simulated table: scripted hands that handle the cards and scripted players at the buttons.

The controller never knows it is simulated. It sees button events (from gpiozero's mock
pins pressed by :class:`~coyote_pi.sim.presser.SimulatedPresser`, or from the
keyboard) and camera frames (rendered by the synthetic camera from :meth:`SimTable.scene`
and read by the real vision code). The simulated table watches the controller's
:class:`~coyote_pi.table.presenter.Prompt` the way people watch the OLED, and acts:

- the **hands** deal the round's cards from the seeded deck onto the stands and the
  centre slot (one card at a time, so the camera sees a deal in progress), lay the
  Coyote card's draw face down, turn the centre card(s) face up at the reveal, and lay
  the card drawn for ``?`` on the draw slot;
- the **players**, one thread per seat, decide with
  :class:`~coyote_pi.engine.players.ScriptedPlayer` from what their seat may know, and
  press minus/plus until the OLED shows their choice, then ok. They guess, enter cards
  by hand on the manual path, and acknowledge verdicts.

Everything is a pure function of the seed, the deal plan and the game so far (the deck
of round ``r`` is ``shuffled_deck(seed, r)`` with the cards a
:class:`~coyote_pi.sim.deals.DealPlan` fixes put in their places; decisions use
:func:`~coyote_pi.engine.players.decision_rng`), so a simulated game that crashes and
resumes plays on exactly as it would have.

The players press through *fingers* (:mod:`coyote_pi.sim.presser`); the camera is
one of :mod:`coyote_pi.sim.camera`'s, fed by :meth:`SimTable.scene`;
:mod:`coyote_pi.sim.rig` puts them together.
"""

from __future__ import annotations

import copy
import logging
import queue
import random
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from coyote_pi import cards
from coyote_pi.engine import Correct, Deal, DrawReplacement, Event, Game, GameConfig, Reveal, seat_view
from coyote_pi.engine.game import TRICKSTER, Legal, RoundState
from coyote_pi.engine.players import ScriptedPlayer, decision_rng
from coyote_pi.sim.deals import DealPlan, parse_deal
from coyote_pi.sim.scene import TableScene
from coyote_pi.table import stages
from coyote_pi.table.presenter import Listener, Prompt
from coyote_pi.table.selector import REPEAT_STEP, SPECIALS, Choice, ChoiceKind, choice_for
from coyote_pi.vision.states import SlotState


class Fingers(Protocol):
    """What the scripted players press with (:mod:`coyote_pi.sim.presser`'s fingers)."""

    def tap(self, seat: int, button: str) -> None: ...

    def hold(self, seat: int, button: str, repeats: int) -> None: ...

    def chord(self, seat: int) -> None: ...


#: What the scripted players answer when setup asks (``players``, ``variant``, ``language``, ``start``).
SetupAnswers = dict[str, int | str]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SimPace:
    """How fast the simulated people are (seconds)."""

    think: float = 0.0  #: before a seat's first press of a turn or a guess
    card: float = 0.0  #: between two cards laid down
    verdict: float = 0.0  #: reading the verdict before pressing ok
    hold: float = 0.05  #: how long a finger holds a button
    #: The least time between releasing a button and the next press (people are not
    #: faster; presses closer than the buttons' debounce time would merge into one).
    gap: float = 0.04
    retry: float = 3.0  #: press again when the screen has not changed for this long
    #: After holding a button, wait until the screen has not changed for this long
    #: before looking again (the auto-repeats arrive one by one).
    settle: float = 0.12


#: A brisk pace for the demo: readable, quick.
DEMO_PACE = SimPace(think=0.1, card=0.08, verdict=1.3)


def truth_game(config: GameConfig, history: Sequence[Event], deck: Callable[[int, int], list[str]]) -> Game:
    """The game as the simulated table knows it: every card known.

    The controller's game saw the seat cards through the camera and the centre only at
    the reveal; replaying its history with each deal replaced by the virtual deal of
    the table's deck (``deck(round, seats in play)``, as :meth:`SimTable.deck`) gives the
    same game with everything known (reveals and draws then happen by themselves, so
    they are skipped).

    A round whose verdict was corrected is replayed as the controller played it (the
    camera's cards, then the correction): the engine corrects only cards a camera read,
    and what follows (eyes, seats out, who starts next) must be the table's verdict.
    """
    corrected = _corrected_rounds(history)
    return truth_game_events(Game(config), history, deck, corrected=corrected)


def _corrected_rounds(history: Sequence[Event]) -> frozenset[int]:
    """The numbers of the rounds whose verdict a :class:`Correct` changed."""
    rounds, number = set(), 0
    for event in history:
        number += isinstance(event, Deal)
        if isinstance(event, Correct):
            rounds.add(number)
    return frozenset(rounds)


def truth_game_events(game: Game, events: Sequence[Event], deck: Callable[[int, int], list[str]], *,
                      corrected: frozenset[int] = frozenset()) -> Game:
    """Apply the controller's ``events`` to a truth ``game`` (see :func:`truth_game`); the
    rounds numbered in ``corrected`` go in as the controller's events are."""
    for event in events:
        number = game.round_number + isinstance(event, Deal)
        if number in corrected:
            game.apply(event)
        elif isinstance(event, Deal):
            game.apply(game.virtual_deal(deck(number, len(game.active_seats))))
        elif not isinstance(event, (Reveal, DrawReplacement)):
            game.apply(event)
    return game


class Truths:
    """:func:`truth_game` for one thread (an actor's, the terminal's), replaying only the
    events added to the prompt's history since the last call (all of them again after a
    correction, which changes how its round is replayed)."""

    def __init__(self, deck: Callable[[int, int], list[str]]) -> None:
        self.deck = deck
        self._history: tuple[Event, ...] = ()
        self._game: Game | None = None

    def of(self, prompt: Prompt) -> Game:
        """The truth game of ``prompt`` (one of a game: its ``config`` is set)."""
        history, config = prompt.history, prompt.config
        if config is None:
            raise ValueError("a prompt before the game's setup has no truth")
        added = history[len(self._history):]
        if (self._game is None or self._game.config != config or history[: len(self._history)] != self._history
                or any(isinstance(event, Correct) for event in added)):
            self._game, self._history = truth_game(config, history, self.deck), history
            return self._game
        game = truth_game_events(self._game, added, self.deck, corrected=_corrected_rounds(self._history))
        self._history = history
        return game


class _Actor:
    """Acts on the newest prompt on its own thread; subclasses say what to do with it."""

    def __init__(self, name: str, table: SimTable) -> None:
        self.thread = threading.Thread(target=self.run, name=name, daemon=True)
        self.table = table
        self.truths = Truths(table.deck)
        self.prompts: queue.Queue[Prompt | None] = queue.Queue()  # None: closing
        self._done_key: object = None
        self._done_at = 0.0
        self.settling = False  #: set by :meth:`act` after a hold

    def _newest(self, first: Prompt | None, quiet: float) -> Prompt | None:
        """The newest prompt once none has arrived for ``quiet`` seconds (None: closing)."""
        item = first
        while item is not None:
            try:
                item = self.prompts.get(timeout=quiet)
            except queue.Empty:
                return first
            first = item
        return None

    def _latest(self, item: Prompt | None) -> Prompt | None:
        """``item`` or a newer prompt waiting behind it: only the newest matters (None: closing)."""
        while item is not None:
            try:
                item = self.prompts.get_nowait()
            except queue.Empty:
                break
        return item

    def run(self) -> None:
        prompt = None
        while True:
            try:
                item = self.prompts.get(timeout=self.table.pace.retry if prompt is not None else None)
                if self.settling:
                    self.settling = False
                    item = self._newest(item, self.table.pace.settle)
                item = self._latest(item)
            except queue.Empty:
                item = prompt  # nothing new: maybe a press got lost; look again
            if item is not None and self.presses and self.table.wait_for_presses(self.table.pace.retry):
                item = self._latest(item)  # the screen the presses led to
            if item is None:
                return
            prompt = item
            try:
                self.consider(prompt)
            except Exception:  # a scripted actor must never take the table down; the test will notice
                log.exception("%s failed on %s", self.thread.name, prompt.stage)

    #: Whether this actor presses buttons, and so looks at the screen only once every
    #: press made is handled (:meth:`SimTable.presses_waiting`).
    presses = False

    def consider(self, prompt: Prompt) -> None:
        key = self.key(prompt)
        if key is None:
            return
        if self.presses and self.table.presses_waiting():
            # People read the screen once their presses have landed: a slow table shows a
            # stale choice meanwhile, and pressing on it would overshoot. (The thread
            # waits for them in :meth:`run`; a table slower than ``pace.retry`` gets
            # another look then.)
            return
        now = self.table.clock()
        if key == self._done_key and now - self._done_at < self.table.pace.retry:
            return
        self._done_key, self._done_at = key, now
        self.act(prompt)
        self._done_at = self.table.clock()

    def key(self, prompt: Prompt) -> tuple[object, ...] | None:
        """What this actor would act on in ``prompt`` (None: nothing to do)."""
        raise NotImplementedError

    def act(self, prompt: Prompt) -> None:
        raise NotImplementedError


class _Hands(_Actor):
    """Lays the cards the prompt asks for (and catches up after a restart)."""

    def key(self, prompt: Prompt) -> tuple[object, ...] | None:
        if prompt.config is None or prompt.stage in (stages.VERDICT, stages.CORRECT, stages.GAME_OVER, stages.RECORD):
            return None
        return (prompt.epoch, prompt.stage, prompt.round, len(prompt.history))

    def act(self, prompt: Prompt) -> None:
        table = self.table
        truth = self.truths.of(prompt)
        stage = prompt.stage
        if stage == stages.DEAL_WAIT:
            table.deal(truth, truth.round_number + 1, slowly=True)
            table.cards_down(prompt)
            return
        table.deal(truth, truth.round_number, slowly=False)  # a no-op unless the table restarted
        r = _open_round(truth)
        if r.extra_used:
            table.lay("extra", SlotState.FACE_DOWN, _known(r.extra))
        if stage in (stages.REVEAL_WAIT, stages.DRAW_WAIT):
            table.lay("centre", SlotState.FACE_UP, _known(r.centre))
            if r.extra_used:
                table.lay("extra", SlotState.FACE_UP, _known(r.extra))
        if stage == stages.DRAW_WAIT:
            table.lay("draw", SlotState.FACE_UP, _known(r.replacement))


class _Player(_Actor):
    """One seat's person at the buttons."""

    presses = True

    def __init__(self, seat: int, table: SimTable) -> None:
        super().__init__(f"sim seat {seat}", table)
        self.seat = seat
        self.brain = ScriptedPlayer()
        self._thought: tuple[object, ...] | None = None

    # -- what to act on --------------------------------------------------------------

    def key(self, prompt: Prompt) -> tuple[object, ...] | None:
        stage, seat = prompt.stage, self.seat
        base = (prompt.epoch, stage, prompt.round, prompt.undos)
        if stage == stages.SETUP:
            return base + (prompt.setup,) if self._setup_target(prompt) is not None else None
        if stage == stages.RECORD:  # a record problem: seat 1 reads it and answers, as a person would
            return base if seat == 1 else None
        if prompt.config is None or seat > prompt.config.players:
            return None
        if stage in (stages.TURN, stages.GUESS) and seat in prompt.virtual:
            return None  # the table plays this seat itself
        truth = self.truths.of(prompt)
        if stage == stages.TURN:
            if self._undo_due(prompt, truth):
                return base + (len(prompt.history), "undo")
            if seat in prompt.seats and not self._undo_pending(prompt, truth):
                return base + (len(prompt.history), prompt.choice)
            return None
        if stage == stages.GUESS:
            return base + (seat in prompt.seats,) if seat in prompt.seats else None
        if stage == stages.VERDICT:
            return base + (len(prompt.history),) if seat == truth.results[-1].winner else None
        if prompt.manual and seat == self._manual_seat(truth, stage):
            if stage == stages.DEAL_WAIT and self.table.dealt_round != truth.round_number + 1:
                return None  # the hands are still dealing
            return base + (len(prompt.history), prompt.entry)
        return None

    def _manual_seat(self, truth: Game, stage: str) -> int:
        if stage == stages.EXTRA_WAIT and truth.turn is not None:
            return truth.turn
        if stage == stages.DEAL_WAIT and truth.next_start is not None:
            return truth.next_start
        return truth.active_seats[0]

    # -- acting ----------------------------------------------------------------------

    def act(self, prompt: Prompt) -> None:
        fingers, stage = self._fingers(), prompt.stage
        if stage == stages.SETUP:
            target = self._setup_target(prompt)
            if target is not None:  # (key() let only a seat with something to press act)
                self._press(target)
            return
        if stage == stages.RECORD:
            time.sleep(self.table.pace.verdict)
            self._press("ok")
            return
        truth = self.truths.of(prompt)
        if stage == stages.TURN:
            if self._undo_due(prompt, truth):
                fingers.chord(self.seat)
                return
            choice = prompt.choice
            if choice is None:  # (a turn's prompt always shows its choice)
                return
            self._think(prompt)
            wanted = self._wanted(prompt, truth)
            button = _step_towards(choice, wanted, truth.legal())
            repeats = _repeats_for(choice, wanted)
            if repeats:
                fingers.hold(self.seat, button, repeats)
                self.settling = True
            else:
                self._press(button)
        elif stage == stages.GUESS:
            self._think(prompt)
            legal = truth.legal()
            guess = self.brain.guess(seat_view(truth, self.seat), legal.guess_options)
            self._press("plus" if guess.winner == legal.guess_options[0] else "minus")
        elif stage == stages.VERDICT:
            time.sleep(self.table.pace.verdict)
            self._press("ok")
        elif stage in (stages.REVEAL_WAIT, stages.DRAW_WAIT):
            if prompt.entry is not None:  # (None: nothing is left to enter)
                item, shown = prompt.entry
                self._press(_card_step(shown, _true_card(truth, item)))
        else:  # the manual deal, or the Coyote card's draw laid by hand
            time.sleep(self.table.pace.card)
            self._press("ok")

    def _press(self, button: str) -> None:
        self._fingers().tap(self.seat, button)

    def _fingers(self) -> Fingers:
        fingers = self.table.fingers
        assert fingers is not None, "a table with players is given their fingers (sim.rig) before it starts"
        return fingers

    def _think(self, prompt: Prompt) -> None:
        """A moment's thought before the first press of a turn or a guess."""
        moment = (prompt.epoch, prompt.stage, len(prompt.history), prompt.undos)
        if moment != self._thought:
            self._thought = moment
            time.sleep(self.table.pace.think)

    def _wanted(self, prompt: Prompt, truth: Game) -> Choice:
        event = self.brain.act(seat_view(truth, self.seat), truth.legal(), decision_rng(self.table.seed, self.seat, truth))
        wanted = choice_for(event)
        if wanted.kind == ChoiceKind.BID and self._misclicks(prompt, truth):
            wanted = Choice(ChoiceKind.BID, _bid_amount(wanted) + 3)  # a finger slips: this bid will be taken back with minus+plus
        return wanted

    # -- the scripted misclick (the demo shows an undo) --------------------------------

    def _misclicks(self, prompt: Prompt, truth: Game) -> bool:
        """The start seat's first bid of round 2 slips, once per game, when enabled."""
        r = _open_round(truth)
        return (self.table.misclick and prompt.undos == 0 and r.number == 2 and not r.bids
                and self.seat == r.start_seat)

    def _undo_pending(self, prompt: Prompt, truth: Game) -> bool:
        """The last bid was the scripted slip and has not been taken back yet: everyone waits.
        (A virtual start seat's bid is no slip: the table made it.)"""
        r = _open_round(truth)
        return (self.table.misclick and prompt.undos == 0 and r.number == 2 and len(r.bids) == 1
                and r.bids[0][0] == r.start_seat and r.start_seat not in prompt.virtual)

    def _undo_due(self, prompt: Prompt, truth: Game) -> bool:
        return self._undo_pending(prompt, truth) and self.seat == _open_round(truth).start_seat

    def _setup_target(self, prompt: Prompt) -> str | None:
        """During setup, seat 1 sets each answer, and the chosen start seat presses ok."""
        if prompt.setup is None:
            return None
        step, shown = prompt.setup
        wanted = self.table.setup_answers.get(step)
        if step == "start":
            return "ok" if self.seat == wanted else None
        if self.seat != 1:
            return None
        if wanted is None or shown == wanted:
            return "ok"
        if step == "players" and isinstance(wanted, int) and isinstance(shown, int):
            return "plus" if wanted > shown else "minus"
        return "plus"


def _known(card: str | None) -> str:
    """A card of the truth, which knows every card it dealt (None would be a bug here)."""
    if card is None:
        raise ValueError("the simulated table's truth has a card it does not know")
    return card


def _open_round(truth: Game) -> RoundState:
    """The round in play in ``truth`` (the players and hands act only while one is)."""
    if truth.round is None:
        raise ValueError(f"no round is in play (round {truth.round_number}, {truth.phase})")
    return truth.round


def _bid_amount(choice: Choice) -> int:
    """The amount of a bid choice (every bid has one; ValueError for another kind)."""
    if choice.amount is None:
        raise ValueError(f"a {choice.kind} choice has no amount")
    return choice.amount


def _choice_order(choice: Choice, specials: tuple[str, ...]) -> float:
    """Position on the selector's line: bids by amount, specials below the lowest bid."""
    if choice.kind == ChoiceKind.BID:
        return float(_bid_amount(choice))
    return -1e9 - specials.index(choice.kind)


def _step_towards(shown: Choice, target: Choice, legal: Legal) -> str:
    if shown == target:
        return "ok"
    specials = tuple(kind for kind in SPECIALS if getattr(legal, kind))  # Legal names them the same way
    return "plus" if _choice_order(target, specials) > _choice_order(shown, specials) else "minus"


def _repeats_for(shown: Choice, wanted: Choice) -> int:
    """Far from the wanted bid, hold the button: each auto-repeat moves it by five."""
    if shown.kind != ChoiceKind.BID or wanted.kind != ChoiceKind.BID:
        return 0
    distance = abs(_bid_amount(wanted) - _bid_amount(shown))
    return (distance - 1) // REPEAT_STEP if distance >= 2 * REPEAT_STEP else 0


def _card_step(shown: str, wanted: str) -> str:
    """The shorter way round the card list from ``shown`` to ``wanted`` (ok when there)."""
    if shown == wanted:
        return "ok"
    distance = (cards.ALL_CARDS.index(wanted) - cards.ALL_CARDS.index(shown)) % len(cards.ALL_CARDS)
    return "plus" if distance <= len(cards.ALL_CARDS) // 2 else "minus"


def _true_card(truth: Game, item: str) -> str:
    """The real card for an item the table asks to enter (the round is resolved in the truth)."""
    return _known(truth.results[-1].card_at(item))


class SimTable(Listener):
    """The hands and (optionally) the players of a simulated table of ``seats`` stands.

    ``fingers`` presses buttons (:class:`~coyote_pi.sim.presser.PresserFingers` or
    :class:`~coyote_pi.sim.presser.QueueFingers`);
    ``players=False`` leaves the buttons to a person (``run --sim``). ``setup_answers``
    are what the players choose when setup asks (``players``, ``variant``, ``language``,
    ``start``). Every game gets its own cards: ``seed`` and ``deal`` (the cards of some
    rounds, ``run --sim --deal``) are those of the next new game, every later game draws a
    fresh seed (:meth:`new_game`); a resumed game deals on with its own (:meth:`resume`).
    Register it as
    a controller listener, :meth:`start` it, :meth:`close` it: each hand and player then
    acts on its own thread. A driver on a simulated clock calls :meth:`act_on` itself
    instead (``clock`` is the time the people go by when they press again after
    ``pace.retry`` seconds without a change).
    """

    def __init__(self, *, seats: int, seed: int, fingers: Fingers | None = None, players: bool = True,
                 pace: SimPace = SimPace(), scheme: str = "aruco", setup_answers: SetupAnswers | None = None,
                 misclick: bool = False,
                 deal: DealPlan = DealPlan(), clock: Callable[[], float] = time.monotonic) -> None:
        #: The seed and plan of the game on the table (see :meth:`new_game`, :meth:`resume`).
        self.seed = seed
        self.deal_plan = deal
        self._next_game: tuple[int, DealPlan] = (seed, deal)
        self._seeds = random.Random(seed)  # the later games' seeds: reproducible from the first
        self._dealt_seeds: set[int] = set()
        self.seats = seats
        self._watchers: list[Callable[[], None]] = []
        self.fingers = fingers
        #: The controller's queue, whose loop marks each item done once handled and
        #: redrawn (the rig that builds the controller hands it in; None: not watched).
        #: The players act only when no press is waiting in it: on a slow processor (a
        #: Pi Zero, or arm64 under emulation) a press on a screen that is not yet up to
        #: date would overshoot a bid.
        self.controller_queue: queue.Queue[Any] | None = None  # its items are the controller's own
        self.pace = pace
        self.clock = clock
        self._started = False
        self._closing = False
        self.misclick = misclick
        self.setup_answers: SetupAnswers = {"players": seats, **(setup_answers or {})}
        self.dealt_round = 0
        self._lock = threading.Lock()
        self._scene = TableScene(seats=seats, scheme=scheme)
        self._actors: list[_Actor] = [_Hands("sim hands", self)]
        if players:
            self._actors += [_Player(seat, self) for seat in range(1, seats + 1)]

    # -- the games' cards ----------------------------------------------------------

    def new_game(self) -> dict[str, object]:
        """A new game starts: its seed and plan (the ones given for the first new game; for
        every later one, a seed this table has not dealt and no plan), and what its
        record keeps of them in its service-only file, from which every deal follows."""
        seed, deal = self._next_game
        self._next_game = (self._fresh_seed(), DealPlan())
        self.seed, self.deal_plan, self.dealt_round = seed, deal, 0
        self._dealt_seeds.add(seed)
        return {"seed": seed, **({"deal": deal.text} if deal.text else {})}

    def resume(self, private_meta: dict[str, object]) -> None:
        """The table goes on with a recorded game: its seed and plan (its record's
        service-only file) deal its rounds; a new game after it gets its own."""
        seed, text = private_meta.get("seed"), private_meta.get("deal")
        if isinstance(seed, int):
            self.seed = seed
            self._dealt_seeds.add(seed)
        self.deal_plan = parse_deal(text) if isinstance(text, str) else DealPlan()

    def _fresh_seed(self) -> int:
        while (seed := self._seeds.randrange(1 << 30)) in self._dealt_seeds:
            pass
        return seed

    # -- the physical table ----------------------------------------------------------

    def deck(self, round_number: int, stands: int) -> list[str]:
        """The deck of round ``round_number`` (top first), for ``stands`` seats in play."""
        return self.deal_plan.order(self.seed, round_number, stands)

    def scene(self) -> TableScene:
        """A snapshot of what lies on the table (for the synthetic camera)."""
        with self._lock:
            return copy.deepcopy(self._scene)

    def watch(self, changed: Callable[[], None]) -> None:
        """Call ``changed()`` after every change of the scene (on the hands' thread: keep it quick)."""
        self._watchers.append(changed)

    def _change(self, **fields: Any) -> None:
        with self._lock:
            values = {**self._scene.__dict__, **fields}
            self._scene = type(self._scene)(**values)
        for changed in self._watchers:
            changed()

    def deal(self, truth: Game, round_number: int, *, slowly: bool) -> None:
        """Clear the table and deal round ``round_number`` (nothing if it lies there already)."""
        if self.dealt_round == round_number:
            return
        seats = truth.active_seats if truth.round_number < round_number else tuple(_open_round(truth).seat_cards)
        order = self.deck(round_number, len(seats))
        holder = truth.coyote_holder if truth.variant == TRICKSTER else None
        coyote = None if truth.variant != TRICKSTER else (holder or "centre")
        self._change(seat_cards={}, slots={}, coyote_card=coyote)
        placed: dict[int, str] = {}
        for seat, card in zip(seats, order):
            placed[seat] = card
            self._change(seat_cards=dict(placed))
            if slowly:
                time.sleep(self.pace.card)
        self._change(slots={"centre": (SlotState.FACE_DOWN, order[len(seats)])})
        self.dealt_round = round_number

    def lay(self, slot: str, state: SlotState, card: str) -> None:
        """Put ``card`` on ``slot`` (face up or down), after a moment for the hand to move."""
        with self._lock:
            already = self._scene.slot(slot) == (state, card)
        if already:
            return
        time.sleep(self.pace.card)
        with self._lock:
            slots = dict(self._scene.slots)
        slots[slot] = (state, card)
        self._change(slots=slots)

    # -- following the controller --------------------------------------------------------

    def presses_waiting(self) -> bool:
        """Whether presses are still waiting for the controller, queued or being handled
        (see :attr:`controller_queue`)."""
        return self.controller_queue is not None and self.controller_queue.unfinished_tasks > 0

    def wait_for_presses(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds until no press is waiting for the controller, or
        the table closes; whether any was (the screen may have changed since)."""
        events = self.controller_queue
        if events is None or not self.presses_waiting():
            return False
        with events.all_tasks_done:  # queue.Queue's own condition, as its join() waits on it
            events.all_tasks_done.wait_for(lambda: events.unfinished_tasks == 0 or self._closing, timeout)
        return True

    def on_prompt(self, prompt: Prompt) -> None:
        for actor in self._actors:
            actor.prompts.put(prompt)

    def cards_down(self, prompt: Prompt) -> None:
        """The hands have dealt: the players look again (the manual path waits for the deal).
        Only the threads need telling: :meth:`act_on` lets the players act after the hands."""
        if self._started:
            self.on_prompt(prompt)

    def act_on(self, prompt: Prompt) -> None:
        """The hands, then each player, act on ``prompt`` now, on the caller's thread."""
        for actor in self._actors:
            actor.consider(prompt)

    def start(self) -> None:
        self._started = True
        for actor in self._actors:
            actor.thread.start()

    def close(self) -> None:
        for actor in self._actors:
            actor.prompts.put(None)
        # A controller that stopped (or crashed) with presses in its queue never marks them
        # done: the players waiting for that are told to stop waiting, not left to time out.
        self._closing = True
        events = self.controller_queue
        if events is not None:
            with events.all_tasks_done:
                events.all_tasks_done.notify_all()
        for actor in self._actors:
            if actor.thread.is_alive():
                actor.thread.join(timeout=5)


