"""What the page says (issue 24): how to get the PIN, the current bid and the challenge as
headlines, a legend for the eyes, Coyote! where the table says it, the draw photo's own
caption, setup fields with labels and help, setup refused between games only, downloads
that say they need the PIN; and a proposal waiting for the table can be taken back."""

from __future__ import annotations

import re

from coyote_pi.config import TABLE_RANGES, range_words
from coyote_pi.engine import events
from coyote_pi.engine.game import Game, GameConfig
from coyote_pi.web import views
from coyote_pi.web.texts import Texts
from tests.web.conftest import PIN, Client, csrf_of, served, spectated


def _form(page: str) -> dict[str, str]:
    return dict(re.findall(r'name="((?:table|game|speech)\.[a-z_]+)" value="([^"]*)"', page))


def test_a_waiting_proposal_is_withdrawn_by_a_form_of_the_values_in_force(tmp_path, folders):
    spectated(tmp_path, players=2, variant="basic", seed=3).set_pin(PIN)
    pending = folders.requests / "settings.toml"
    with served(folders) as port:
        client = Client(port)
        client.login()
        in_force = _form(client.get("/setup").text)
        assert in_force["game.start_seat"] == "ask"
        reply = client.post("/setup/settings", dict(in_force, **{"game.start_seat": "2"}, csrf=csrf_of(client)))
        assert reply.status == 200 and "start_seat = 2" in pending.read_text()
        # The form shows what the next game will have, and what is in force now.
        page = client.get("/setup").text
        assert _form(page)["game.start_seat"] == "2" and "in force now: ask" in page
        reply = client.post("/setup/settings", dict(in_force, csrf=csrf_of(client)))
        assert reply.status == 200 and 'id="settings-withdrawn"' in reply.text
        assert not pending.exists()
        # Once nothing waits, the same form sends nothing and says so.
        reply = client.post("/setup/settings", dict(in_force, csrf=csrf_of(client)))
        assert "Nothing sent" in reply.text and not pending.exists()


def test_setup_fields_have_labels_units_and_help(tmp_path, folders):
    spectated(tmp_path, players=2, variant="basic", seed=3, language="de").set_pin(PIN)
    with served(folders) as port:
        client = Client(port)
        client.login()
        page = client.get("/setup").text
    labels = re.findall(r'<label class="setting" for="([a-z_.]+)">([^<]+)</label>', page)
    assert len(labels) == len(_form(page)) >= 8 and all("_" not in text for _, text in labels)
    assert "Wer das nächste Spiel beginnt" in page
    # Every number's help gives the range the table checks it against, as the field takes it.
    for key in TABLE_RANGES:
        bounds = range_words(key)
        assert re.search(rf'id="table.{key}-help">[^<]*\({re.escape(bounds["low"])} bis {bounds["high"]}\)', page), key
    assert "Sekunden (0.5 bis 60)" in page


def test_the_pin_help_the_headlines_and_the_words_of_a_challenge(tmp_path, folders):
    game = spectated(tmp_path, players=3, variant="trickster", seed=5)
    game.set_pin(PIN)
    game.play_until(lambda g, event: isinstance(event, events.Bid))
    with served(folders) as port:
        client = Client(port)
        login = client.get("/login").text
        assert "“Who starts?”" in login and "at any seat" in login and "press ok there" in login.lower()
        bid = game.game.round.bid
        assert f"Current bid: {bid} by seat {game.game.round.bidder}" in client.get("/").text
        assert "legend" in client.get("/").text and "closed eye" in client.get("/").text
        challenge = game.play_until(lambda g, event: isinstance(event, events.Challenge))
        assert f"Seat {challenge.seat} says Coyote! to seat" in client.get("/").text
        client.login()
        refusal = client.get("/setup")
        assert refusal.status == 409 and "Setup only between games" in refusal.text
        assert "wait for its verdict" not in refusal.text
        game.play_until(lambda g, event: bool(g.results))
        page = client.get("/").text
        game.play_until(lambda g, event: False)  # to the game's end: its downloads are offered
        assert "The downloads ask for the PIN" in Client(port).get("/records").text
        assert "The downloads ask for the PIN" not in client.get("/records").text  # in a session: no need
    assert "doubt" not in page.lower() and "challenged seat" in page


def test_the_draw_photo_has_its_own_caption():
    game = Game(GameConfig(players=2))
    game.apply(events.Deal({1: "4", 2: "5"}))
    game.apply(events.Bid(game.turn, 12))
    game.apply(events.Challenge(game.turn))
    game.apply(events.Reveal("?"))
    game.apply(events.DrawReplacement("3"))
    shown = views.verdict(Texts("en"), "game-0001", game.last_result,
                          [("round-01-reveal.jpg", "reveal"), ("round-01-draw.jpg", "draw")])
    assert [photo["caption"] for photo in shown["photos"]] == [
        "The reveal, as the camera saw it", "The card drawn for ?, as the camera saw it"]
