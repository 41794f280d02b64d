"""What the pages say: in the table's language, every line of a round, the game so far."""

from __future__ import annotations

import re

from coyote_pi.web.games import Games, Step
from coyote_pi.web.texts import Texts
from coyote_pi.web.views import step_text
from tests.web.conftest import Client, served, spectated


def test_a_round_is_told_in_the_tables_language(tmp_path, folders):
    game = spectated(tmp_path, players=4, variant="trickster", seed=11, language="de")
    game.play_until(lambda g, event: g.winner is not None)
    types = {step.type for story in Games(folders.records).stories("game-0001") for step in story.steps}
    assert {"deal", "bid", "challenge", "guess", "reveal"} <= types
    with served(folders) as port:
        client = Client(port)
        pages = [client.get(f"/history/game-0001/round/{n}").text for n in range(1, game.game.round_number + 1)]
        table = client.get("/").text
    tables = "".join(re.search(r"<tbody>(.*)</tbody>", page, re.S).group(1) for page in pages)
    steps = re.sub(r"<[^>]+>", " ", tables)  # what a person reads
    assert "Platz" in steps and "Karten gegeben" in steps and "tippt auf Platz" in steps
    assert not re.search(r"\b(seat|Seat|deal|guesses|bids)\b", steps)
    assert 'lang="de"' in table and "Das Spiel bisher" in table
    assert Texts("de")("over.big", seat=game.game.winner) in table


def test_a_correction_says_who_confirmed_which_card():
    step = Step(line=9, time="2026-11-23T19:00:00.000Z", type="correct", cards={"seat:2": "max0"}, confirmed_by=(1, 2))
    assert step_text(Texts("en"), step) == "Corrected by seats 1, 2: Seat 2 is Max 0"
