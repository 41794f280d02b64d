"""The names of the table's stages: where the table stands, and so what it shows and asks.

The controller derives the stage after every button press, camera reading and timer
from the game's phase and the table's memory (it never keeps it separately)::

    setup -> deal -> turn (-> extra) ... -> [guess] -> reveal -> [draw] -> verdict [-> correct] -> deal ... -> over

``setup`` asks what the configuration leaves open. ``deal``, ``extra``, ``reveal`` and
``draw`` wait for cards: for the camera, or for the buttons on the manual path (they
are the camera waits of :mod:`~coyote_pi.table.camera_wait`, under the same names).
``turn`` runs the seat's selector, ``guess`` collects the Trickster guesses, ``verdict``
pages through the round's result, ``correct`` puts right a card the camera misread
(:mod:`~coyote_pi.table.correction`) and ``over`` shows the winner. ``record`` stands
before all of them while the record needs a person: it was repaired at resume, cannot
be resumed, was deleted, or a new one cannot be written; ok answers.
"""

from enum import StrEnum

from coyote_pi.engine import BIDDING, DEAL, DRAW, GUESSING, OVER, REVEAL
from coyote_pi.table.camera_wait import Wait


class Stage(StrEnum):
    """Where the table stands (see the module docstring); the value is what ``live.json``
    and the prompt's listeners see."""

    SETUP = "setup"
    DEAL = "deal"
    TURN = "turn"
    EXTRA = "extra"
    GUESS = "guess"
    REVEAL = "reveal"
    DRAW = "draw"
    VERDICT = "verdict"
    CORRECT = "correct"
    OVER = "over"
    RECORD = "record"


class Question(StrEnum):
    """The ``setup`` stage's questions, in the order they are asked (each only when the
    configuration leaves it open); the value is what the prompt's ``setup`` carries."""

    PLAYERS = "players"
    VARIANT = "variant"
    LANGUAGE = "language"
    START = "start"  #: who starts, and which seats are virtual


#: Short names, as the parts use them (``DEAL_WAIT`` and its kin are the card waits).
SETUP, TURN, GUESS, VERDICT, CORRECT, GAME_OVER, RECORD = (
    Stage.SETUP, Stage.TURN, Stage.GUESS, Stage.VERDICT, Stage.CORRECT, Stage.OVER, Stage.RECORD)
DEAL_WAIT, EXTRA_WAIT, REVEAL_WAIT, DRAW_WAIT = WAITS = (Stage.DEAL, Stage.EXTRA, Stage.REVEAL, Stage.DRAW)
#: The camera wait each card-wait stage opens.
CAMERA_WAIT: dict[Stage, Wait] = {
    Stage.DEAL: Wait.DEAL, Stage.EXTRA: Wait.EXTRA, Stage.REVEAL: Wait.REVEAL, Stage.DRAW: Wait.DRAW}
#: The stage each phase of the game shows when nothing stands before it (no record
#: problem, no verdict to see, no extra card to lay on the mat).
OF_PHASE: dict[str, Stage] = {
    DEAL: Stage.DEAL, BIDDING: Stage.TURN, GUESSING: Stage.GUESS, REVEAL: Stage.REVEAL, DRAW: Stage.DRAW,
    OVER: Stage.OVER}
