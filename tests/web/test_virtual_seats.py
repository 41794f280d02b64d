"""Virtual seats on the page: its setup proposes them as the table's configuration writes
them (checked by the same parser, refused in the table's one line), and the table page
and a game's page mark the seats the table plays from public information only (the
bulletin's ``live.json`` and the record's ``meta.virtual``)."""

from __future__ import annotations

import re

import pytest

from coyote_pi.config import ConfigError, GameSettings, TableConfig, with_page_settings
from coyote_pi.web import setup
from coyote_pi.web.bulletin import Live, virtual_seats
from tests.web.conftest import PIN, Client, csrf_of, served, spectated


def test_the_setup_form_offers_virtual_seats_and_sends_them_as_text(tmp_path, folders):
    spectated(tmp_path, players=3, variant="basic", seed=3).set_pin(PIN)
    with served(folders) as port:
        client = Client(port)
        client.login()
        page = client.get("/setup").text
        assert 'name="game.virtual" value="none"' in page and "Seats the table plays" in page
        assert "<code>[game] virtual</code>" in page
        reply = client.post("/setup/settings", {"csrf": csrf_of(client), "game.virtual": "2:cautious"})
        assert reply.status == 200 and "Sent:" in reply.text
    proposed = (folders.requests / "settings.toml").read_text()
    assert '[game]\nvirtual = "2:cautious"\n' in proposed
    assert with_page_settings(TableConfig(), proposed).game.virtual == "2:cautious"


def test_a_seat_number_alone_is_proposed_as_text_and_means_a_strong_seat(tmp_path):
    proposed = setup.proposal({"game.virtual": "3"})
    assert proposed is not None and 'virtual = "3"' in proposed
    assert with_page_settings(TableConfig(), proposed).game.virtual == "3:strong"
    assert setup.proposal({"game.virtual": "none"}, setup.current_fields(tmp_path, None)) is None


@pytest.mark.parametrize("typed", ["3:wizard", "3:strong,3:bluffer", "seat three", "9:strong"])
def test_a_bad_virtual_seat_is_refused_in_the_table_s_own_words(typed):
    with pytest.raises(ConfigError) as page:
        setup.proposal({"game.virtual": typed})
    with pytest.raises(ConfigError) as table:
        with_page_settings(TableConfig(game=GameSettings()), f'[game]\nvirtual = "{typed}"\n',
                           source="the proposed settings")
    assert str(page.value) == str(table.value) and "\n" not in str(page.value)
    assert str(page.value).startswith("the proposed settings: [game] ")


def test_the_table_page_and_the_game_page_mark_the_virtual_seats(tmp_path, folders):
    game = spectated(tmp_path, players=3, variant="basic", seed=3, virtual={3: "strong"})
    game.play_until(lambda played, event: played.round is not None and played.round.bids)
    with served(folders) as port:
        client = Client(port)
        table = client.get("/").text
        seats = dict(re.findall(r'data-seat="(\d)">\s*<span class="name">[^<]*</span>\s*(<span class="tag virtual">'
                                r'[^<]*</span>)?', table))
        assert seats == {"1": "", "2": "", "3": '<span class="tag virtual">virtual (strong)</span>'}
        page = client.get("/history/game-0001").text
        assert re.findall(r'<li data-seat="(\d)">Seat \d <span class="tag virtual">([^<]*)</span>', page) == [
            ("3", "virtual (strong)")]


def test_a_game_without_virtual_seats_marks_none(tmp_path, folders):
    spectated(tmp_path, players=3, variant="basic", seed=3)
    with served(folders) as port:
        client = Client(port)
        table, page = client.get("/").text, client.get("/history/game-0001")
        assert 'data-seat="3"' in table and "tag virtual" not in table
        assert page.status == 200 and "virtual-seats" not in page.text


def test_virtual_seats_the_page_reads_are_checked():
    assert virtual_seats({"3": "strong", "1": "bluffer"}) == ((1, "bluffer"), (3, "strong"))
    assert virtual_seats({"7": "strong", "0": "strong", "x": "strong", "2": "wizard", "4": ["strong"], "٣": "strong"}) == ()
    assert virtual_seats(["3", "strong"]) == () and virtual_seats(None) == ()
    assert Live.parse({"version": 1, "virtual": {"2": "cautious"}}).virtual == ((2, "cautious"),)
    assert Live.parse({"version": 1}).virtual == ()
