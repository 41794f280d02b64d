"""Setup: the questions the table asks before the first round.

The configuration (``[game]`` in the TOML file, or ``run``'s flags) may leave open the
number of players, the variant, the language and who starts. The table asks for each
open one on the OLED, in that order, and any seat's buttons answer:

- players, variant, language: minus/plus change the value shown, ok moves on;
- who starts: the youngest player presses ok at their own seat. Before that, plus or
  minus at a seat makes it virtual, walking it through the levels (strong, cautious,
  bluffer) and back to a person: the table plays that seat itself
  (:mod:`~coyote_pi.table.virtual_seats`).

While the players are asked, the camera may count the stands on the table; the count
becomes the offered number until a seat changes it by hand. Each reading also says
which stands are missing or too near the frame's edge (:attr:`SetupWizard.framing`,
shown under the question until they are fine; setup goes on all the same).

    >>> from coyote_pi.devices.events import PRESS, ButtonEvent
    >>> from coyote_pi.config import GameSettings
    >>> wizard = SetupWizard(GameSettings(players=None, variant="basic", language="en", start_seat=None), "en")
    >>> str(wizard.step), wizard.values["players"]
    ('players', 4)
    >>> wizard.press(ButtonEvent(2, "plus", PRESS, 0.0)), wizard.values["players"]
    (True, 5)
    >>> wizard.press(ButtonEvent(2, "ok", PRESS, 0.0)), str(wizard.step)
    (True, 'start')
    >>> wizard.press(ButtonEvent(6, "ok", PRESS, 0.0))   # seat 6 does not play in a 5-player game
    False
    >>> wizard.press(ButtonEvent(3, "ok", PRESS, 0.0)), wizard.done, wizard.game_config()
    (True, True, GameConfig(players=5, variant=<Variant.BASIC: 'basic'>, start_seat=3, deck=Deck('standard')))

Nothing is recorded until the last answer: the table then starts the game's record with
:meth:`SetupWizard.game_config` (and the language in its setup line).
:class:`SetupWizard` is plain data that takes presses (the table's state holds it, so
this module imports no part); :class:`~coyote_pi.table.game_start.GameStart` is the
table's side: the table says when a seat that does not play presses, speaks a language
as soon as it is chosen, and starts the record after the last answer.
"""

from __future__ import annotations

from typing import TypedDict

from coyote_pi.config import GameSettings
from coyote_pi.devices.events import CHORD, PRESS, REPEATING_BUTTONS, Button, ButtonEvent
from coyote_pi.engine import GameConfig, Variant
from coyote_pi.engine.game import MAX_PLAYERS, MIN_PLAYERS, VARIANTS
from coyote_pi.players import TABLE_LEVELS, parse_seats
from coyote_pi.table.camera_wait import Problem
from coyote_pi.table.stages import Question
from coyote_pi.words.translator import LANGUAGES

#: Players offered first when setup asks (and the camera has not counted the stands).
DEFAULT_PLAYERS = 4
#: The key of the setup line's ``meta`` that names the virtual seats.
META_KEY = "virtual"


class SetupValues(TypedDict):
    """The answers so far, one per question (``start`` is None until a seat answers it)."""

    players: int
    variant: str
    language: str
    start: int | None


def next_level(level: str | None, step: int) -> str | None:
    """The level after (``step`` 1) or before (-1) ``level`` in the setup's cycle: a
    person (None), then the table's levels, strongest first."""
    cycle: list[str | None] = [None, *TABLE_LEVELS]
    return cycle[(cycle.index(level) + step) % len(cycle)]


def _cycle(options: tuple[str, ...], value: str, delta: int) -> str:
    """The option ``delta`` steps from ``value``, wrapping (how minus/plus walk a question)."""
    return options[(options.index(value) + delta) % len(options)]


class SetupWizard:
    """The answers collected before the first round, and the questions still open.

    ``settings`` is the configuration's ``[game]``; ``language`` the one the table
    speaks now (offered first when the language is asked).
    """

    def __init__(self, settings: GameSettings, language: str) -> None:
        self._start_seat = settings.start_seat
        self.values: SetupValues = {
            "players": settings.players or max(DEFAULT_PLAYERS, settings.start_seat or MIN_PLAYERS),
            "variant": settings.variant or VARIANTS[0],
            "language": settings.language or language,
            "start": settings.start_seat,
        }
        #: Seat -> level of the seats the table plays itself.
        self.virtual: dict[int, str] = parse_seats(settings.virtual or "")
        configured = {Question.PLAYERS: settings.players, Question.VARIANT: settings.variant,
                      Question.LANGUAGE: settings.language, Question.START: settings.start_seat}
        #: The questions still open, the one asked now first.
        self.steps = [step for step, value in configured.items() if value is None]
        #: The questions a seat has changed the value of (a stand count no longer overrides those).
        self._touched: set[Question] = set()
        #: The stands missing or too near the frame's edge, as shown (see :meth:`see_framing`).
        self.framing: tuple[Problem, ...] = ()
        self._last_framing: tuple[Problem, ...] = ()
        #: Seat -> its level before its last minus or plus on "Who starts?", while that
        #: press is the last the wizard heard from the seat (:meth:`take_back`).
        self._before_press: dict[int, str | None] = {}

    @property
    def step(self) -> Question:
        """The question asked now (only while not :attr:`done`)."""
        return self.steps[0]

    @property
    def done(self) -> bool:
        return not self.steps

    @property
    def language(self) -> str:
        """The language chosen so far: the table speaks it at once."""
        return self.values["language"]

    def press(self, event: ButtonEvent) -> bool:
        """Answer with one button event. False when a seat that does not play presses ok
        to start (the table says so); True otherwise."""
        step = self.step
        if step == Question.START:
            if event.kind == CHORD:
                self.take_back(event.seat)
                return True
            if event.kind != PRESS:
                return True  # (a held minus or plus repeats: still the same press)
            self._before_press.pop(event.seat, None)
            if event.seat > self.values["players"]:
                return False
            if event.button != Button.OK:
                self._before_press[event.seat] = self.virtual.get(event.seat)
                self._make_virtual(event.seat, 1 if event.button == Button.PLUS else -1)
                return True
            self.values["start"] = event.seat
            self.steps.pop(0)
        elif event.button == Button.OK and event.kind == PRESS:
            self.steps.pop(0)
        elif event.button in REPEATING_BUTTONS:
            self._touched.add(step)
            delta = 1 if event.button == Button.PLUS else -1
            if step == Question.PLAYERS:
                self.values["players"] = self._players_within(self.values["players"] + delta)
            elif step == Question.VARIANT:
                self.values["variant"] = _cycle(VARIANTS, self.values["variant"], delta)
            else:
                self.values["language"] = _cycle(LANGUAGES, self.values["language"], delta)
        return True

    def count_stands(self, stands: int) -> bool:
        """Offer the number of stands the camera counted as the number of players, unless
        a seat has chosen by hand; True if taken."""
        if Question.PLAYERS in self._touched:
            return False
        self.values["players"] = self._players_within(stands)
        return True

    def see_framing(self, problems: tuple[Problem, ...]) -> None:
        """Take what one reading says of the stands' places in the frame. A problem shows
        once two readings in a row say it (one frame that misses a marker, or a hand
        passing over a stand, says nothing true about the set-up); it goes with the
        first reading without it."""
        self.framing = tuple(problem for problem in problems if problem in self._last_framing)
        self._last_framing = problems

    def take_back(self, seat: int) -> None:
        """Minus and plus went down together at ``seat`` (a chord, which follows the press of
        the one that went down first): that press was no answer, so the seat's level is
        what it was before it. Nothing when the seat's last press was not a minus or plus."""
        if seat in self._before_press:
            level = self._before_press.pop(seat)
            if level is None:
                self.virtual.pop(seat, None)
            else:
                self.virtual[seat] = level

    def _make_virtual(self, seat: int, step: int) -> None:
        level = next_level(self.virtual.get(seat), step)
        if level is None:
            self.virtual.pop(seat, None)
        else:
            self.virtual[seat] = level

    def virtual_seats(self) -> dict[int, str]:
        """The virtual seats among the players chosen."""
        players = self.values["players"]
        return {seat: level for seat, level in sorted(self.virtual.items()) if seat <= players}

    def virtual_meta(self) -> dict[str, dict[str, str]]:
        """What the setup line's ``meta`` says of the virtual seats (nothing when none)."""
        seats = self.virtual_seats()
        return {META_KEY: {str(seat): level for seat, level in seats.items()}} if seats else {}

    def game_config(self) -> GameConfig:
        """The game the answers describe (once :attr:`done`)."""
        start = self.values["start"]
        if start is None:
            raise RuntimeError("the game's config is asked for before a seat said who starts")
        return GameConfig(self.values["players"], Variant(self.values["variant"]), start)

    def _players_within(self, players: int) -> int:
        """``players`` moved into 2..6, and up to a start seat the configuration names."""
        return min(MAX_PLAYERS, max(MIN_PLAYERS, self._start_seat or MIN_PLAYERS, players))
