"""What the page says when something is off: a session that ended under an open form, a
form that changes nothing or is too large, a record that does not replay, an address
that leads nowhere, a PIN while the table is not running."""

from __future__ import annotations

import re
import shutil

import pytest

from coyote_pi.config import ConfigError
from coyote_pi.web import setup
from tests.web.conftest import PIN, Client, csrf_of, served, spectated


def test_a_session_that_ended_keeps_the_settings_typed_and_says_so(tmp_path, folders):
    spectated(tmp_path, players=2, variant="basic", seed=3).set_pin(PIN)
    with served(folders) as port:
        client = Client(port)
        client.login()
        csrf = csrf_of(client)
    with served(folders) as port:  # the page server restarted: its sessions are gone
        client.port = port
        reply = client.post("/setup/settings", {"csrf": csrf, "table.page_seconds": "5", "game.start_seat": ""})
        assert reply.status == 401 and "Your session ended" in reply.text
        assert '<input type="hidden" name="table.page_seconds" value="5">' in reply.text
        assert 'name="game.start_seat"' not in reply.text  # an empty field keeps its value: nothing to carry
        assert client.get("/setup/events").status == 401  # a stream, never a page: EventSource stops
        action = re.search(r'<form method="post" action="([^"]+)" class="login">', reply.text).group(1)
        kept = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', reply.text))
        back = client.post(action.replace("&amp;", "&"), dict(kept, pin=PIN))
        assert (back.status, back.headers["location"]) == (303, "/setup?table.page_seconds=5")
        page = client.get(back.headers["location"]).text
        assert 'name="table.page_seconds" value="5"' in page and "propose them again" in page
    assert not (folders.requests / "settings.toml").exists()  # nothing was sent without a session


def test_a_form_that_changes_nothing_sends_nothing_and_says_so(tmp_path, folders):
    spectated(tmp_path, players=2, variant="basic", seed=3).set_pin(PIN)
    with served(folders) as port:
        client = Client(port)
        client.login()
        page = client.get("/setup").text
        form = dict(re.findall(r'name="((?:table|game|speech)\.[a-z_]+)" value="([^"]*)"', page))
        reply = client.post("/setup/settings", dict(form, csrf=csrf_of(client)))
        assert reply.status == 200 and "Nothing sent: every value is the one in force" in reply.text
        assert "Sent:" not in reply.text
        assert not (folders.requests / "settings.toml").exists()


def test_a_body_larger_than_any_form_is_refused_as_such(tmp_path, folders):
    spectated(tmp_path, players=2, variant="basic", seed=3).set_pin(PIN)
    with served(folders) as port:
        client = Client(port)
        client.login()
        reply = client.post("/setup/settings", {"csrf": csrf_of(client), "table.page_seconds": "9" * 20_000})
        assert reply.status == 413 and "more than any form of this page sends" in reply.text
        assert "did not come from this page" not in reply.text
        assert client.post("/login", {"pin": "1" * 20_000}).status == 413


@pytest.mark.parametrize("text", ["nan", "inf", "1_0", "２", "0x10", "1" * 400])
def test_a_setting_is_a_plain_decimal_number(text):
    with pytest.raises(ConfigError, match=r"camera_interval must be (a number|0 to 60)"):
        setup.proposal({"table.camera_interval": text})


def test_a_record_that_does_not_replay_is_said_so_everywhere(tmp_path, folders):
    spectated(tmp_path, players=2, variant="basic", seed=3).set_pin(PIN)
    (folders.records / "game-0002.jsonl").write_bytes(b"garbage {{{\n")
    with served(folders) as port:
        client = Client(port)
        page = client.get("/history/game-0002")
        assert page.status == 200 and "This record does not replay: line 1: not valid JSON" in page.text
        assert "0 players" not in page.text and "Fingerprint" not in page.text
        client.login()
        transcript = client.get("/records/game-0002.txt")
        assert transcript.status == 200
        assert transcript.text.startswith("coyote-pi game record game-0002.jsonl does not replay: line 1:")


def test_an_address_that_leads_nowhere_is_a_page_with_its_navigation(tmp_path, folders):
    spectated(tmp_path, players=2, variant="basic", seed=3)
    with served(folders) as port:
        client = Client(port)
        for path, words in (("/history/game-0009", "No such game"), ("/history/game-0001/round/99", "No such round")):
            reply = client.get(path)
            assert reply.status == 404 and words in reply.text and "<nav>" in reply.text
        assert client.get("/static/icon.svg").status == 200  # the icon every page names


def test_a_pin_while_the_table_is_not_running_says_so(folders):
    with served(folders) as port:
        reply = Client(port).post("/login", {"pin": PIN})
        assert reply.status == 403 and "The table is not running" in reply.text


def test_a_round_whose_photos_were_pruned_says_so_instead_of_a_broken_picture(tmp_path, folders):
    game = spectated(tmp_path, players=2, variant="basic", seed=3)
    game.play_to_end()
    with served(folders) as port:
        page = Client(port).get("/history/game-0001/round/1").text
        assert "/photos/game-0001/round-01-reveal.jpg" in page and 'id="photos-gone"' not in page
        shutil.rmtree(folders.records / "game-0001.photos")  # as prune_photos does for old games
        page = Client(port).get("/history/game-0001/round/1").text
        assert "/photos/game-0001/" not in page and "no longer kept" in page
