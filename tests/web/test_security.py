"""Who may do what: the PIN, the session cookie, the cross-site checks, the refusals during a
round, the headers; and what the history, records and setup pages show."""

from __future__ import annotations

import argparse
import io
import re
import zipfile
from fractions import Fraction

from coyote_pi.cli import main
from coyote_pi.commands import web as web_command
from coyote_pi.engine import events
from coyote_pi.engine.game import Game
from coyote_pi.engine.odds import bid_odds
from coyote_pi.engine.views import seat_view
from coyote_pi.record import read_record
from coyote_pi.sim.web_page import page_command
from coyote_pi.web import security
from coyote_pi.web.app import Options
from coyote_pi.web.games import percent
from coyote_pi.web.setup import JOURNAL
from tests.web.conftest import PIN, Client, Events, csrf_of, open_round_number, served, spectated


def in_a_round(tmp_path):
    game = spectated(tmp_path, players=3, variant="basic", seed=3)
    game.play_until(lambda g, event: isinstance(event, events.Bid) and g.round_number == 2)
    game.set_pin(PIN)
    assert open_round_number(game) == 2
    return game


def test_setup_and_downloads_need_the_pin_and_wait_for_the_round_and_the_game(tmp_path, folders):
    game = in_a_round(tmp_path)
    with served(folders) as port:
        client = Client(port)
        for path in ("/setup", "/records/game-0001.zip", "/records/game-0001.txt"):
            reply = client.get(path)
            assert (reply.status, reply.headers["location"]) == (303, f"/login?next={path}")
        assert client.login("000000").status == 403 and client.cookie is None
        reply = client.login()
        assert reply.status == 303 and client.cookie.startswith(security.COOKIE + "=")
        cookie = reply.headers["set-cookie"].lower()
        assert "httponly" in cookie and "samesite=strict" in cookie
        # In a session, still refused: round 2 is open, and a game is on.
        for path in ("/records/game-0001.zip", "/records/game-0001.txt", "/setup", "/setup/preview.jpg"):
            assert client.get(path).status == 409, path
        game.play_to_end()
        archive = client.get("/records/game-0001.zip")
        assert archive.status == 200 and archive.headers["content-type"] == "application/zip"
        assert client.get("/setup").status == 200
        transcript = client.get("/records/game-0001.txt").text
        assert read_record(game.path).fingerprint in transcript and "coyote-pi replay game-0001/game-0001.jsonl" in transcript
    names = zipfile.ZipFile(io.BytesIO(archive.body)).namelist()
    assert "game-0001/game-0001.jsonl" in names and any(".photos/round-01-reveal.jpg" in n for n in names)
    zipfile.ZipFile(io.BytesIO(archive.body)).extractall(tmp_path / "download")
    folder = tmp_path / "download" / "game-0001"
    fingerprint = read_record(game.path).fingerprint
    assert main(["replay", str(folder / "game-0001.jsonl"), "--expect", fingerprint,
                 "--photos", str(folder / "game-0001.photos")]) == 0


def test_an_expired_pin_opens_nothing(tmp_path, folders):
    game = spectated(tmp_path)
    game.set_pin(PIN, minutes=-1)
    with served(folders) as port:
        assert Client(port).login().status == 403


def test_wrong_pins_are_limited_per_client_then_for_everyone():
    now = [1000.0]
    guard = security.PinGuard(clock=lambda: now[0])
    for _ in range(security.PER_CLIENT):
        assert guard.wait("a") == 0
        guard.failed("a")
    assert guard.wait("a") > 50 and guard.wait("b") == 0
    now[0] += security.WINDOW
    assert guard.wait("a") == 0
    for n in range(security.GLOBAL):  # many addresses, one attempt each
        guard.failed(f"10.0.0.{n}")
    assert guard.wait("someone new") == security.BACKOFF


def test_the_pin_limit_answers_429(tmp_path, folders):
    spectated(tmp_path).set_pin(PIN)
    with served(folders) as port:
        client = Client(port)
        statuses = [client.login("111111").status for _ in range(security.PER_CLIENT + 1)]
        assert statuses == [403] * security.PER_CLIENT + [429]
        assert client.login().status == 429  # even the right one, until the window has passed


def test_posts_need_this_pages_origin_and_the_sessions_token(tmp_path, folders):
    game = spectated(tmp_path, players=2, variant="basic", seed=3)
    game.set_pin(PIN)
    with served(folders) as port:
        stranger = Client(port, origin=False)
        assert stranger.post("/login", {"pin": PIN}, headers={"Origin": "http://evil.example"}).status == 403
        assert stranger.post("/login", {"pin": PIN}).status == 403  # no Origin, no Referer
        client = Client(port)
        client.login()
        good = {"csrf": csrf_of(client), "table.page_seconds": "5"}
        assert client.post("/setup/settings", dict(good, csrf="forged")).status == 403
        assert client.post("/setup/settings", good, headers={"Origin": "http://evil.example"}).status == 403
        assert not (folders.requests / "settings.toml").exists()
        reply = client.post("/setup/settings", dict(good, **{"table.stable_reads": "99"}))
        assert reply.status == 400 and "[table] stable_reads must be 1 to 10, not 99" in reply.text
        assert client.post("/setup/settings", good).status == 200
        proposed = (folders.requests / "settings.toml").read_text()
        assert "page_seconds = 5" in proposed and "players" not in proposed
        assert client.post("/setup/doctor", {"csrf": csrf_of(client)}).status == 303
        assert (folders.requests / "doctor.want").exists()


def test_every_page_forbids_frames_and_foreign_scripts(tmp_path, folders):
    spectated(tmp_path)
    with served(folders) as port:
        for path in ("/", "/history", "/records", "/login", "/static/page.js"):
            headers = Client(port).get(path).headers
            assert headers["x-frame-options"] == "DENY"
            assert "script-src 'self'" in headers["content-security-policy"]
            assert "frame-ancestors 'none'" in headers["content-security-policy"]
        page = Client(port).get("/").text
        assert "<script>" not in page and "http" not in page.replace("http-equiv", "")


def test_the_setup_page_shows_the_log_or_says_it_is_missing(tmp_path, folders):
    game = spectated(tmp_path, players=2, variant="basic", seed=3)
    game.set_pin(PIN)
    for command, expected in ((["echo", "2026-11-23 coyote-pi[1]: ready"], "coyote-pi[1]: ready"),
                              (["no-such-journalctl"], "not available")):
        with served(folders, Options(log_command=command)) as port:
            client = Client(port)
            client.login()
            assert expected in client.get("/setup").text


def test_beside_a_simulated_table_the_setup_page_says_the_devices_log_is_not_available(tmp_path, folders):
    """A simulated table has no journal: its page (as the simulator starts it) shows none,
    where journalctl would answer "-- No entries --"."""
    game = spectated(tmp_path, players=2, variant="basic", seed=3)
    game.set_pin(PIN)
    parser = argparse.ArgumentParser()
    web_command.configure(parser)
    command = page_command(folders.records, folders.bulletin, folders.requests, "127.0.0.1:8080")
    assert command[2:4] == ["coyote_pi", "web"]
    options = web_command.page_options(parser.parse_args(command[4:]))
    assert options.log_command is None
    assert web_command.page_options(parser.parse_args(command[4:-1])).log_command == JOURNAL  # on the device
    with served(folders, options) as port:
        client = Client(port)
        client.login()
        page = client.get("/setup").text
    assert "log is not available here" in page and "<pre>" not in page.split("device-log")[1]


def test_a_round_has_its_own_address_with_each_bids_odds_from_the_bidders_view(tmp_path, folders):
    game = in_a_round(tmp_path)
    record = read_record(game.path)
    with served(folders) as port:
        client = Client(port)
        page = client.get("/history/game-0001/round/1").text
        assert client.get("/history/game-0001/round/2").status == 404  # open: not told yet
        assert client.get("/history/game-0001/round/3").status == 404
    replayed, expected = Game(record.game.config), {}
    for line, event in zip_events(record):
        if isinstance(event, events.Bid) and replayed.round_number == 1:
            expected[line] = percent(bid_odds(seat_view(replayed, event.seat), event.amount))
        replayed.apply(event)
    shown = dict(re.findall(r'data-odds-line="(\d+)">([^<]+)<', page))
    assert expected and {int(k): v for k, v in shown.items()} == expected
    result = record.game.results[0]
    assert f'data-challenger="{result.challenger}"' in page
    assert "/photos/game-0001/round-01-reveal.jpg" in page


def zip_events(record):
    """(line number, event) of every closed round's game event, sealed ones opened."""
    opened = {o["seq"]: o["event"] for line in record.lines if line["kind"] == "opening" for o in line["openings"]}
    end = record.open_round.first_line - 1 if record.open_round else len(record.lines)
    for number, line in enumerate(record.lines[:end], start=1):
        if line["kind"] in ("action", "observation"):
            yield number, events.from_dict(opened.get(line["seq"], line["event"]))


def test_percent_never_rounds_to_a_false_certainty():
    assert [percent(Fraction(n, 1000)) for n in (0, 3, 500, 996, 1000)] == ["0%", "<1%", "50%", ">99%", "100%"]


def test_the_setup_page_shows_the_camera_preview_and_pushes_the_checks(tmp_path, folders):
    game = spectated(tmp_path, players=2, variant="basic", seed=3)
    game.set_pin(PIN)
    (folders.bulletin / "preview.jpg").write_bytes(b"\xff\xd8 a preview \xff\xd9")
    (folders.bulletin / "preview.json").write_text(
        '{"time": "2026-11-23T19:00:00.000Z", "width": 640, "height": 360, "stands": {"1": "ok", "2": "missing", "3": "edge"},'
        ' "framing": {"2": "not in view", "3": "only 9 px from the left edge (keep 11 px)"}, "markers": 9, "note": ""}')
    with served(folders) as port:
        client = Client(port)
        client.login()
        page = client.get("/setup").text
        assert 'src="/setup/preview.jpg?t=2026-11-23T19%3A00%3A00.000Z"' in page and "stand-missing" in page
        assert "stand-edge" in page and "Seat 3: only 9 px from the left edge (keep 11 px)" in page
        assert client.get("/setup/preview.jpg").body == b"\xff\xd8 a preview \xff\xd9"
        assert (folders.requests / "preview.want").exists()
        stream = Events(port, "/setup/events", cookie=client.cookie).start()
        stream.wait_for(lambda data: data["state"]["preview"] is not None)
        (folders.bulletin / "doctor.json").write_text(
            '{"time": "2026-11-23T19:00:01.000Z", "checks": [{"name": "camera", "ok": true, "detail": "sees 2 stands"}]}')
        message = stream.wait_for(lambda data: data["state"]["doctor"] is not None)
        assert "sees 2 stands" in message["html"]
        stream.close()
        assert Client(port).get("/setup/events").status == 401  # no session, no stream (and no page for a stream)
