"""The review on the history pages: each closed round's decisions with the move the review
prefers and its mark, the per-seat summary on the game's page, and never a judgement of a
round still open."""

from __future__ import annotations

import re

from coyote_pi.engine import events
from coyote_pi.record import read_record
from coyote_pi.web.games import Games
from tests.web.conftest import Client, served, spectated

REVIEWED = re.compile(r'data-review-line="(\d+)"')
DECISIONS = ("bid", "challenge", "coyote_card", "guess")


def every_page(client: Client, game: str, rounds: int) -> dict[str, str]:
    """Every page of ``game``: the history, the game's page and each round's, up to ``rounds``."""
    paths = ["/history", f"/history/{game}", *(f"/history/{game}/round/{n}" for n in range(1, rounds + 1))]
    return {path: client.get(path).text for path in paths}


def test_a_game_in_progress_shows_no_judgement_of_its_open_round(tmp_path, folders):
    game = spectated(tmp_path, players=4, variant="trickster", seed=11)
    game.play_until(lambda g, event: g.round_number == 3 and isinstance(event, events.Bid))
    record = read_record(game.path)
    assert record.open_round is not None
    with served(folders) as port:
        pages = every_page(Client(port), "game-0001", game.game.round_number)
    judged = [int(line) for text in pages.values() for line in REVIEWED.findall(text)]
    assert judged, "no judgement at all: the check would pass vacuously"
    assert all(line < record.open_round.first_line for line in judged)
    assert REVIEWED.findall(pages["/history/game-0001/round/3"]) == []  # the open round has no page
    summary = re.search(r'<section class="review" id="review">.*?</section>', pages["/history/game-0001"], re.S)
    assert summary and "Seat 1: decisions" in summary.group(0)
    counted = sum(int(n) for n in re.findall(r"decisions (\d+)", summary.group(0)))
    assert counted == len(judged)  # the summary counts the closed rounds' decisions only


def test_every_decision_of_a_finished_game_is_judged_on_its_rounds_page(tmp_path, folders):
    game = spectated(tmp_path, players=3, variant="basic", seed=4)
    game.play_to_end()
    stories = Games(folders.records).stories("game-0001")
    with served(folders) as port:
        client = Client(port)
        for story in stories:
            page = client.get(f"/history/game-0001/round/{story.number}").text
            wanted = [str(step.line) for step in story.steps if step.type in DECISIONS and not step.undone]
            assert REVIEWED.findall(page) == wanted, story.number
            assert "history.review" not in page and ">Review<" in page
        overview = client.get("/history/game-0001")
    assert overview.status == 200 and "Seat 3: decisions" in overview.text
