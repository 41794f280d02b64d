"""The table and its page read the same contract (docs/web.md): what the real table's
bulletin writes during a simulated game is what the page's reader and views expect,
field by field; the PIN the OLED shows opens the page; the settings the page proposes
are the ones the table takes; the camera view, the checks and the settings' answer the
table writes are what the setup page shows."""

from __future__ import annotations

import dataclasses
import json
import re
import time

from coyote_pi.config import PAGE_SETTABLE, TableConfig, page_values, with_page_settings
from coyote_pi.contract.page import CAMERA_STATES
from coyote_pi.sim.presser import QueueFingers
from coyote_pi.sim.rig import SimOptions
from coyote_pi.table import bulletin as table_bulletin
from coyote_pi.table import stages
from coyote_pi.web import security, setup
from coyote_pi.web.app import Options, create_app
from coyote_pi.web.bulletin import Folders, Live, read_live
from coyote_pi.web.games import Games
from coyote_pi.web.views import table_model
from tests.table.conftest import fast_sim, running_table, sim_devices, table_config
from tests.web.conftest import Client, LiveWrites, ask_for_pin, served

URL = "http://table.test/"
STAGES = {stages.SETUP, stages.TURN, stages.GUESS, stages.VERDICT, stages.CORRECT, stages.GAME_OVER, stages.RECORD,
          *stages.WAITS}


def web_table(folder, players, variant="basic", **options):
    return table_config(folder / "games", players, variant, **options).with_web(enabled=True, url=URL)


def test_every_live_json_of_a_real_game_reads_as_the_page_expects(tmp_path, monkeypatch):
    # Every change written, none folded into the next: a short verdict is seen however
    # the machine's load spaces the writes (the gap itself: tests/table/test_web_side.py).
    monkeypatch.setattr(table_bulletin, "MIN_GAP", 0.0)
    writes = LiveWrites(monkeypatch)
    config = web_table(tmp_path, 3, "trickster", language="de")
    with running_table(config, fast_sim(seed=4), before_start=writes.install) as (_rig, spy):
        spy.wait_for(lambda p: p.stage == stages.GAME_OVER, timeout=60)
    games = Games(tmp_path / "games")
    seen_stages, rounds_open = set(), set()
    last = max(writes.by_seq)
    for seq, written in sorted(writes.by_seq.items()):
        document, live = written.document, Live.parse(written.document)
        if seq == last:  # the table's last write, as it stopped: where it stood, nothing to do there
            assert document["stopped"] is True and document["stage"] == stages.GAME_OVER
            assert (live.running, live.between_games, live.pin) == (False, False, None)
            shown = create_app(Folders.beside(tmp_path / "games")).state.pages.table_message(live)["html"]
            assert "data-turn" not in shown and "The table is not running" not in shown  # in German here
            assert "Der Tisch läuft nicht" in shown
            continue
        assert document["stopped"] is False
        assert (live.running, live.seq, live.language, live.players, live.variant) == (True, seq, "de", 3, "trickster")
        # The record's name is one the page takes (else it would follow no game).
        assert live.game_file == document["game_file"]
        assert live.stage in STAGES and live.camera in CAMERA_STATES
        assert live.round_open == (written.open_round is not None) and live.between_games == written.between_games
        assert live.locks(live.game) == (live.game is not None and written.open_round is not None)
        assert live.url == URL and live.screen == document["screen"] and list(live.log) == document["log"]
        if document["public"] is None:
            continue
        model = table_model(live, games)
        assert model["turn"] == written.turn and model["round"] == document["public"]["round"]
        last_bid = model["bids"][-1] if model["bids"] else None
        assert (None if last_bid is None else (last_bid["seat"], last_bid["amount"])) == written.last_bid
        assert [(s["seat"], [s["open"], s["closed"]]) for s in model["seats"]] == \
            [(int(seat), eyes) for seat, eyes in sorted(document["public"]["eyes"].items())]
        seen_stages.add(live.stage)
        rounds_open.add(written.open_round)
    assert {stages.TURN, stages.VERDICT, stages.GAME_OVER} <= seen_stages and len(rounds_open) > 2


def test_the_pin_the_oled_shows_opens_the_page_and_no_other(tmp_path):
    folders = Folders.beside(tmp_path / "games")
    with running_table(web_table(tmp_path, 2, start=None), fast_sim(players=False)) as (rig, spy):
        shown, published = ask_for_pin(spy, QueueFingers(rig.controller.queue), 1, folders, URL)
    assert " " in shown  # two groups of three, as people read it off the OLED and type it
    assert security.pin_matches(shown, published, time.time())
    assert security.pin_matches(shown.replace(" ", ""), published, time.time())
    wrong = f"{(int(shown.replace(' ', '')) + 1) % 1_000_000:06d}"
    assert not security.pin_matches(wrong, published, time.time())
    assert not security.pin_matches(shown, published, time.time() + 601)  # ten minutes, then no more


def test_the_page_offers_exactly_what_the_table_takes_from_it(tmp_path):
    assert {(section, key) for section, keys in PAGE_SETTABLE.items() for key in keys} == set(setup.EDITABLE)
    current = setup.current_fields(tmp_path / "public", None)  # nothing published: the defaults
    form = {field.name: str(field.value) for field in current}  # the form as the browser sends it
    assert setup.proposal(form, current) is None  # nothing changed, nothing proposed
    form.update({"table.page_seconds": "6", "game.start_seat": "2"})
    taken = with_page_settings(TableConfig(), setup.proposal(form, current))
    assert taken.pacing == dataclasses.replace(TableConfig().pacing, page_seconds=6) and taken.game.start_seat == 2


def test_what_the_table_answers_is_what_the_setup_page_shows(tmp_path):
    folders = Folders.beside(tmp_path / "games")
    folders.touch_request("preview.want")
    folders.touch_request("doctor.want")
    current = setup.current_fields(folders.bulletin, None)
    setup.write_proposal(folders.requests, setup.proposal({"table.verdict_seconds": "9"}, current))
    checks = [{"name": "board", "ok": None, "detail": "not a Raspberry Pi"},
              {"name": "camera", "ok": False, "detail": "no camera found"}]
    config = web_table(tmp_path, 3, start=None)
    with running_table(config, SimOptions(players=False, camera="render"), devices=sim_devices(),
                       web_doctor=lambda: checks) as (rig, spy):
        spy.wait_for(lambda p: p.setup == ("start", None))
        deadline = time.monotonic() + 30
        while not (folders.bulletin / "preview.json").exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert rig.controller.pacing.verdict_seconds == 9
        message = create_app(folders, Options(log_command=None)).state.pages.setup_message(read_live(folders))
    state, html = message["state"], message["html"]
    assert state["between_games"] and state["settings_result"]["ok"] is True and not state["pending"]
    assert html.count("stand-ok") == 3 and 'id="preview"' in html
    assert "no camera found" in html and "check-fail" in html and "check-skip" in html
    assert json.loads((folders.bulletin / "doctor.json").read_text())["checks"] == checks


def test_a_simulated_table_answers_the_checks_with_its_simulated_devices(tmp_path):
    """``run --sim`` and ``demo`` run no doctor of a Pi: "Run the checks" is answered with
    the simulated devices (once only a request file, and "No checks run yet." for ever)."""
    folders = Folders.beside(tmp_path / "games")
    folders.touch_request("doctor.want")
    with running_table(web_table(tmp_path, 2, start=None), fast_sim(players=False)) as (_rig, spy):
        spy.wait_for(lambda p: p.setup == ("start", None))
        deadline = time.monotonic() + 10
        while not (folders.bulletin / "doctor.json").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        message = create_app(folders, Options(log_command=None)).state.pages.setup_message(read_live(folders))
    checks = {check["name"]: check for check in message["state"]["doctor"]["checks"]}
    assert list(checks) == ["board", "OLED", "camera", "pin map"]
    assert checks["board"]["ok"] is None and "simulated table" in checks["board"]["detail"]
    assert checks["OLED"]["ok"] is True and checks["pin map"]["ok"] is True
    assert "No checks run yet" not in message["html"] and message["html"].count("check-ok") >= 2


def test_a_proposal_the_table_refuses_is_said_on_the_setup_page(tmp_path):
    folders = Folders.beside(tmp_path / "games")
    folders.requests.mkdir(parents=True)
    (folders.requests / "settings.toml").write_text("[vision]\nscheme = \"qr\"\n")  # set at the table only
    with running_table(web_table(tmp_path, 2, start=None), fast_sim(players=False)) as (_rig, spy):
        spy.wait_for(lambda p: p.setup == ("start", None))
        deadline = time.monotonic() + 10
        while (folders.requests / "settings.toml").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        message = create_app(folders, Options(log_command=None)).state.pages.setup_message(read_live(folders))
    assert message["state"]["settings_result"]["ok"] is False
    assert "[vision] is not settable from the web page" in message["html"]


def test_the_setup_page_shows_the_settings_the_table_took_and_proposes_against_them(tmp_path):
    folders = Folders.beside(tmp_path / "games")
    configured = tmp_path / "config.toml"  # what the page would show without the table's word
    configured.write_text("[table]\npage_seconds = 4.0\n")
    setup.write_proposal(folders.requests, setup.proposal({"table.page_seconds": "6"},
                                                          setup.current_fields(folders.bulletin, configured)))
    with running_table(web_table(tmp_path, 2, start=None), fast_sim(players=False)) as (rig, spy):
        shown, _ = ask_for_pin(spy, QueueFingers(rig.controller.queue), 1, folders, URL)
        assert rig.controller.pacing.page_seconds == 6
        with served(folders, Options(config_file=configured, log_command=None)) as port:
            client = Client(port)
            assert client.post("/login", {"pin": shown}).status == 303
            page = client.get("/setup").text
            assert 'name="table.page_seconds" value="6"' in page
            assert "the configuration file says 0.3" in page  # the table's own configuration (FAST)
        # The form sent back as shown proposes nothing: the page compares it with the table's values.
        form = dict(re.findall(r'name="((?:table|game|speech)\.[a-z_]+)" value="([^"]*)"', page))
        assert len(form) == len(setup.EDITABLE)
        assert setup.proposal(form, setup.current_fields(folders.bulletin, configured)) is None


def test_a_settings_json_the_page_cannot_use_counts_as_absent(tmp_path):
    bulletin, configured = tmp_path / "public", tmp_path / "config.toml"
    bulletin.mkdir()
    configured.write_text("[table]\npage_seconds = 5\n")
    good = page_values(TableConfig().with_pacing(page_seconds=6))
    short = {"game": good["game"], "table": {k: v for k, v in good["table"].items() if k != "stable_reads"}}
    for text in ("{not json", json.dumps({"version": 2, "settings": good}),
                 json.dumps({"version": 1, "settings": short}),
                 json.dumps({"version": 1, "settings": {**good, "game": {"start_seat": True}}}),
                 json.dumps({"version": 1, "settings": {**good, "record": {"dir": "/"}}})):
        (bulletin / "settings.json").write_text(text)
        shown = {field.name: field for field in setup.current_fields(bulletin, configured)}
        assert shown["table.page_seconds"].value == 5 and shown["table.page_seconds"].configured is None, text
    (bulletin / "settings.json").write_text(json.dumps({"version": 1, "settings": good, "configured": "?"}))
    shown = {field.name: field for field in setup.current_fields(bulletin, configured)}
    assert (shown["table.page_seconds"].value, shown["table.page_seconds"].configured) == (6, None)
