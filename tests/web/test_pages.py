"""What the pages say: in the table's language, every line of a round, the game so far."""

from __future__ import annotations

import json
import re

from coyote_pi.engine import events
from coyote_pi.web.bulletin import Folders
from coyote_pi.web.games import Games
from coyote_pi.web.texts import Texts
from coyote_pi.web.views import event_text
from tests.web.conftest import Client, served, spectated


def test_a_round_is_told_in_the_tables_language(tmp_path, folders):
    game = spectated(tmp_path, players=4, variant="trickster", seed=11, language="de")
    game.play_to_end()
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
    assert event_text(Texts("en"), events.Correct("seat:2", "max0", (1, 2))) == "Corrected by seats 1, 2: Seat 2 is Max 0"


def test_the_devices_english_play_by_play_is_shown_only_to_an_english_table(tmp_path):
    pages = {}
    for language in ("en", "de"):
        root = tmp_path / language
        game = spectated(root, players=3, variant="basic", seed=4, language=language)
        game.play_until(lambda g, event: isinstance(event, events.Bid))
        with served(Folders.beside(root / "games")) as port:
            pages[language] = Client(port).get("/").text
    assert '<section class="log">' in pages["en"] and "bids" in pages["en"]
    assert '<section class="log">' not in pages["de"]  # its bids are told in German instead
    assert 'lang="de"' in pages["de"] and "Gebote" in pages["de"]


def test_the_cameras_state_is_worded_in_the_tables_language_and_an_unknown_one_is_left_out(tmp_path):
    root = tmp_path / "de"
    game = spectated(root, players=3, variant="basic", seed=4, language="de")
    game.play_until(lambda g, event: isinstance(event, events.Bid))
    folders = Folders.beside(root / "games")
    live = folders.bulletin / "live.json"
    with served(folders) as port:
        for state, shown in (("manual", "Kamera: Karten per Hand"), ("restarting", "Kamera: startet neu")):
            live.write_text(json.dumps({**json.loads(live.read_text()), "camera": state, "seq": 900}))
            assert shown in Client(port).get("/").text
        live.write_text(json.dumps({**json.loads(live.read_text()), "camera": "<b>on fire</b>", "seq": 901}))
        page = Client(port).get("/").text
    assert "Kamera:" not in page and "on fire" not in page
