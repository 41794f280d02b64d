"""``run --sim --coach``: after each move of a seat a person plays, that move judged as the
review judges it (docs/review.md), under the frame; at the end of the game, the review offered.

The judgement is made from the moving seat's view before its move only (its own card and
the centre card stay unknown), so it tells nothing the seat could not see. Seats the
table plays itself are not coached.
"""

from __future__ import annotations

from collections.abc import Callable

from coyote_pi.engine import events
from coyote_pi.engine.game import Game
from coyote_pi.players.seating import turn_view
from coyote_pi.review.judge import DECISIONS, Judgement, judge
from coyote_pi.review.texts import judgement_details, move_text, percent
from coyote_pi.table import stages
from coyote_pi.table.presenter import Listener, Prompt
from coyote_pi.words.translator import Translator


class Coach(Listener):
    """Judges each new move of a seat not played by the table, as the prompts show it.

    ``tell`` shows a judgement (each in place of the last), ``note`` the review offered at
    the end of the game (each in place of the last, apart from the judgements); ``words`` gives the table's language now, and
    ``record`` the path of the record in play (the seed the table's players use is its name).
    """

    def __init__(self, tell: Callable[[str], None], note: Callable[[str], None], words: Callable[[], Translator],
                 record: Callable[[], object]) -> None:
        self._tell, self._note, self._words, self._record = tell, note, words, record
        self._seen = 0  #: the events of the game in play already looked at
        self._offered: object = None  #: the record whose review was offered

    def on_prompt(self, prompt: Prompt) -> None:
        if prompt.config is None:
            return
        history = prompt.history
        if len(history) < self._seen:  # a new game
            self._seen = 0
        path = self._record()
        for index in range(self._seen, len(history)):
            move = history[index]
            if isinstance(move, DECISIONS) and move.seat not in prompt.virtual:
                before = Game.from_events(prompt.config, history[:index])
                self._tell(coach_line(self._words(), judge(index + 1, turn_view(before, move.seat), move,
                                                           getattr(path, "name", ""))))
        self._seen = len(history)
        if prompt.stage == stages.GAME_OVER and path is not None and path != self._offered:
            self._offered = path
            tr = self._words()
            self._note(tr("review.offer", command=f"coyote-pi review {path} --language {tr.language}"))


def coach_line(tr: Translator, judged: Judgement) -> str:
    """One line: the move against the best one, its mark and what the seat could know for sure."""
    head = tr("review.coach", seat=judged.seat, played=move_text(tr, events.to_dict(judged.played)),
              played_loss=percent(judged.played_loss), best=move_text(tr, events.to_dict(judged.best)),
              best_loss=percent(judged.best_loss), difference=percent(judged.difference))
    return "; ".join([head, *judgement_details(tr, judged.to_dict())])
