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

from coyote_pi.table import camera_wait

SETUP, TURN, GUESS, VERDICT, CORRECT, GAME_OVER, RECORD = (
    "setup", "turn", "guess", "verdict", "correct", "over", "record")
#: The stages that wait for cards: they are the camera waits, under the same names.
DEAL_WAIT, EXTRA_WAIT, REVEAL_WAIT, DRAW_WAIT = WAITS = camera_wait.WAITS
