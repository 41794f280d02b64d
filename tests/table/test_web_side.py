"""The table's side of its web page: live.json holds no card of an open round, writes are
coalesced and survive a failing folder, the chord shows the address and a PIN whose hash
alone is published, and the page's requests are answered between games only."""

from __future__ import annotations

import itertools
import json
import logging
import time
from pathlib import Path

import pytest

from coyote_pi.config import page_values, with_page_settings
from coyote_pi.devices.render import ScreenRenderer, split_to_width
from coyote_pi.engine.views import open_round, public_view
from coyote_pi.record import read_record
from coyote_pi.sim import rig as sim_rig
from coyote_pi.sim.presser import QueueFingers
from coyote_pi.sim.rig import SimOptions
from coyote_pi.table import bulletin as bulletin_module
from coyote_pi.table import screens, web_requests
from coyote_pi.table.bulletin import Bulletin, TableFacts
from coyote_pi.table.deadlines import Deadlines, Timer
from coyote_pi.table.web_access import HotspotJoin, pin_hash
from coyote_pi.table.web_requests import POLL_SECONDS
from coyote_pi.words.translator import Translator

from .conftest import FAST, SteppedTable, fast_sim, play, running_table, sim_devices, table_config
from .test_record_problems import _decoded

#: The fields that hold cards in anything the engine writes (results, rounds, events).
CARD_KEYS = {"card", "cards", "centre", "extra", "replacement", "seats", "seat_cards", "deck", "drawn"}


def web_config(folder: Path, players: int, variant: str = "basic", **options):
    config = table_config(folder / "games", players, variant, **options)
    return config.with_web(enabled=True, url="http://table.test/")


def _card_fields(node, found: list, round_named=None) -> list:
    """Every dict in ``node`` that holds a card field, with the round it names: its own
    ``round``, or that of the nearest dict around it that names one (a verdict's
    adjustments name their cards inside the result of their round)."""
    if isinstance(node, dict):
        round_named = node.get("round", round_named)
        if CARD_KEYS & node.keys():
            found.append({**node, "round": round_named})
        for value in node.values():
            _card_fields(value, found, round_named)
    elif isinstance(node, list):
        for value in node:
            _card_fields(value, found, round_named)
    return found


def test_no_live_json_written_during_an_open_round_holds_a_card_of_it(tmp_path, monkeypatch):
    written: list[tuple[dict, object, float]] = []
    holder: dict = {}
    real_write = bulletin_module.write_atomically

    def spying_write(path, data):
        if path.name == "live.json":
            controller = holder["rig"].controller
            game = controller.state.game
            opened = None if game is None else open_round(game)
            cards = None if opened is None else (opened.number, dict(opened.seat_cards), opened.centre, opened.extra)
            written.append((json.loads(data), cards, controller.web.bulletin._last_write))
        real_write(path, data)

    monkeypatch.setattr(bulletin_module, "write_atomically", spying_write)
    real_open_rig = sim_rig.open_rig

    def remembering_open_rig(*args, **kwargs):
        rig = real_open_rig(*args, **kwargs)
        holder["rig"] = rig
        return rig

    monkeypatch.setattr(sim_rig, "open_rig", remembering_open_rig)
    played = play(web_config(tmp_path, 4, "trickster"), sim=fast_sim(seed=4))
    opened = [(document, cards) for document, cards, _ in written if cards is not None]
    assert len(opened) > 20, "the game was too short to check anything"
    for document, (number, _seats, _centre, _extra) in opened:
        # (A write at the end of a 50 ms gap may still say the round before: the check holds all the same.)
        for holding in _card_fields(document, []):
            # Only a closed round's result may name cards: never the open round's.
            assert holding.get("round") is not None and holding["round"] < number, holding
        assert document["public"]["round"] <= number
        assert "history" not in json.dumps(document)
    # Every write follows the last by 50 ms or more and counts up by one.
    seqs = [document["seq"] for document, _, _ in written]
    assert seqs == list(range(len(seqs)))
    times = [moment for _, _, moment in written][:-1]  # the last, at the table's end, is written at once
    assert all(later - earlier >= 0.05 - 1e-9 for earlier, later in itertools.pairwise(times))
    # The last state is the game's end, as the engine's public view has it.
    last = json.loads((tmp_path / "public" / "live.json").read_text())
    assert last["stage"] == "over" and last["between_games"]
    assert last["public"] == json.loads(json.dumps(public_view(played.game)))
    assert last["game_file"] == played.path.name and last["web"]["url"] == "http://table.test/"
    assert last["log"][-1] == played.spy.lines[-1]


def _facts(stage: str) -> TableFacts:
    return TableFacts(stage, "en", 2, "basic", None, False, True, "ok", {}, None)


def test_bursts_are_coalesced_and_the_last_state_is_written_within_50_ms(tmp_path):
    now = [100.0]
    deadlines = Deadlines()
    bulletin = Bulletin(tmp_path, clock=lambda: now[0], deadlines=deadlines, url="u", page_count=lambda s: 1)
    bulletin.facts(_facts("setup"))
    first = json.loads((tmp_path / "live.json").read_text())
    for moment, stage in ((100.01, "turn"), (100.02, "guess"), (100.03, "verdict")):
        now[0] = moment
        bulletin.facts(_facts(stage))
    assert json.loads((tmp_path / "live.json").read_text()) == first  # held back ...
    assert deadlines.next_due() == pytest.approx(100.05)  # ... until the gap is over
    now[0] = 100.05
    assert deadlines.due(now[0]) == [Timer.BULLETIN]
    bulletin.flush()
    last = json.loads((tmp_path / "live.json").read_text())
    assert (last["seq"], last["stage"]) == (1, "verdict")


def test_a_failing_bulletin_folder_is_said_once_and_survived(tmp_path, caplog):
    folder = tmp_path / "public"
    folder.write_text("a file where the folder should be")
    now = [0.0]
    bulletin = Bulletin(folder, clock=lambda: now[0], deadlines=Deadlines(), url="u", page_count=lambda s: 1)
    with caplog.at_level(logging.WARNING, logger="coyote_pi.table.bulletin"):
        for step in range(5):
            now[0] += 1
            bulletin.facts(_facts(f"stage {step}"))
    assert [r.levelname for r in caplog.records] == ["ERROR"]
    folder.unlink()
    folder.mkdir()
    now[0] += 1
    bulletin.facts(_facts("back"))
    assert json.loads((folder / "live.json").read_text())["stage"] == "back"
    assert "written again" in caplog.records[-1].getMessage()


def _live(folder: Path) -> dict:
    return json.loads((folder / "live.json").read_text())


def _screen(table: SteppedTable):
    """The newest screen the stepped table has shown."""
    return table.spy.screens[-1][1]


def test_the_chord_shows_the_address_then_a_pin_whose_hash_alone_is_published(tmp_path):
    public = tmp_path / "public"
    table = SteppedTable(web_config(tmp_path, 3, start=None))
    try:
        assert "minus+plus: web page" in _screen(table).lines
        table.fingers.chord(2)
        table.run_for(0.5)
        address = _screen(table)
        assert address.qr == "http://table.test/" and address.lines == ("table.test", "ok: PIN")
        # The chord's first press (minus) reached "Who starts?" before the chord did: it
        # asked for no virtual seat.
        assert table.controller.state.setup.virtual_seats() == {}
        table.tap(2, "ok")
        shown = _screen(table)
        assert shown.title == "Web page PIN"
        pin = shown.big.replace(" ", "")
        assert len(pin) == 6 and pin.isdigit()
        table.run_for(0.05)  # the bulletin's coalescing gap: the PIN screen is published by now
        live = _live(public)
        published = live["web"]["pin"]
        assert published["sha256"] == pin_hash(pin, published["salt"]) and len(published["salt"]) == 32
        assert live["screen"]["big"] == "*** ***" and pin not in json.dumps(live["screen"])
        assert not any(pin in line for line in live["log"])
        table.tap(3, "minus")  # any other press closes it; the setup did not move
        assert _screen(table).title == "Who starts?"
        table.tap(1, "ok")  # the game starts as ever (no camera here: the deal waits for the buttons)
        assert table.controller.state.stage == "deal" and table.controller.game.config.start_seat == 1
        assert table.controller.state.virtual == {}  # every seat a person, as before the chord
        table.run_for(0.05)
        assert _live(public)["web"]["pin"] == published  # still valid for the page
    finally:
        table.close()


def test_the_chord_shows_no_address_of_a_page_that_is_not_running_there(tmp_path):
    """``run --sim --web`` at an address another program holds: its page never started
    (or stopped), so the address is another program's: no QR code of it, no PIN."""
    serving = [False]
    table = SteppedTable(web_config(tmp_path, 3, start=None), web_page=lambda: serving[0])
    try:
        table.fingers.chord(2)
        table.run_for(0.5)
        shown = _screen(table)
        assert not shown.qr and shown.title == "Web page" and shown.lines == (
            "Not running here: no address to show. ok: close",)
        assert not any("table.test" in line for line in shown.lines)
        table.tap(2, "ok")  # closes it: no PIN for a page that is not there
        assert _screen(table).title == "Who starts?"
        serving[0] = True  # the page runs (again): its address is shown
        table.fingers.chord(2)
        table.run_for(0.5)
        assert _screen(table).qr == "http://table.test/"
    finally:
        table.close()


def test_the_hotspot_join_code_is_shown_by_itself_and_kept_off_the_bulletin(tmp_path):
    join = tmp_path / "hotspot.json"
    join.write_text(HotspotJoin("coyote-pi", "s3cret-key", "http://10.42.0.1/").to_json())
    table = SteppedTable(web_config(tmp_path, 3, start=None).with_web(hotspot_file=join, url=""))
    try:
        table.run_for(POLL_SECONDS)  # the table looks for the hotspot's join file between games
        assert _screen(table).qr == "WIFI:T:WPA;S:coyote-pi;P:s3cret-key;;"
        table.run_for(0.05)  # the bulletin is written by now
        live = (tmp_path / "public" / "live.json").read_text()
        assert '"stage"' in live and "s3cret-key" not in live
        table.tap(1, "ok")
        assert _screen(table).qr == "http://10.42.0.1/"
    finally:
        table.close()


def test_page_settings_apply_at_the_next_game_and_bad_ones_are_refused_in_one_line(tmp_path):
    requests = tmp_path / "requests"
    requests.mkdir()
    (requests / "settings.toml").write_text("[table]\npage_seconds = 7\n")
    table = SteppedTable(web_config(tmp_path, 2))
    try:
        table.tap(1, "ok")  # dealt by hand
        assert table.controller.state.stage == "turn" and table.controller.pacing.page_seconds == 7
        assert not (requests / "settings.toml").exists()
        result = json.loads((tmp_path / "public" / "settings-result.json").read_text())
        assert result["ok"] is True and result["error"] is None
        # During a game a new file waits: nothing is applied, however long the game goes on.
        (requests / "settings.toml").write_text("[game]\nplayers = 5\n")
        table.run_for(10 * POLL_SECONDS)
        assert (requests / "settings.toml").exists() and table.controller.pacing.page_seconds == 7
        table.controller.web.requests.take_settings()  # as the next game's setup would
    finally:
        table.close()
    result = json.loads((tmp_path / "public" / "settings-result.json").read_text())
    assert result == {**result, "ok": False, "error": "settings.toml: [game] players is not settable from the web page"}


def test_a_virtual_seat_proposed_by_the_page_plays_the_next_game_and_live_json_names_it(tmp_path):
    requests = tmp_path / "requests"
    requests.mkdir()
    (requests / "settings.toml").write_text('[game]\nvirtual = "2:cautious"\n')
    table = SteppedTable(web_config(tmp_path, 3))
    try:
        assert table.controller.state.virtual == {2: "cautious"}  # the setup the proposal came before
        assert read_record(table.controller.state.recorded.path).meta["virtual"] == {"2": "cautious"}
        assert _live(tmp_path / "public")["virtual"] == {"2": "cautious"}
        published = json.loads((tmp_path / "public" / "settings.json").read_text())
        assert published["settings"]["game"]["virtual"] == "2:cautious"
        assert published["configured"]["game"]["virtual"] == "none"
    finally:
        table.close()


def test_live_json_names_the_seats_setup_makes_virtual_before_the_game(tmp_path):
    table = SteppedTable(web_config(tmp_path, 3, start=None))
    try:
        assert _live(tmp_path / "public")["virtual"] == {}
        table.tap(3, "plus")  # "Who starts?": seat 3's plus makes it virtual (strong)
        assert table.controller.state.setup is not None
        assert _live(tmp_path / "public")["virtual"] == {"3": "strong"}
    finally:
        table.close()


def test_settings_taken_from_the_page_are_kept_and_a_new_table_starts_with_them(tmp_path):
    requests, public, kept = tmp_path / "requests", tmp_path / "public", tmp_path / "page-settings.toml"
    requests.mkdir()
    (requests / "settings.toml").write_text("[table]\npage_seconds = 7\nkeep_photos_games = 3\n")
    config = web_config(tmp_path, 2)
    assert config.page_settings_file() == kept
    with running_table(config, fast_sim(players=False)) as (rig, spy):
        spy.wait_for(lambda p: p.stage == "turn")
    assert with_page_settings(config, kept.read_text()).pacing.page_seconds == 7
    assert "delete this file" in kept.read_text()
    published = json.loads((public / "settings.json").read_text())
    assert published["settings"]["table"]["page_seconds"] == 7 and published["configured"]["table"]["page_seconds"] == 0.3
    (public / "settings.json").unlink()
    # A new table process on the same folders, its configuration file unchanged.
    with running_table(config, fast_sim(players=False)) as (rig, spy):
        assert (rig.controller.pacing.page_seconds, rig.controller.store.keep_photos) == (7, 3)
        spy.wait_for(lambda p: p.stage == "turn")
    published = json.loads((public / "settings.json").read_text())
    assert published["version"] == 1 and published["settings"] == page_values(config.with_pacing(page_seconds=7)
                                                                               .replace(keep_photos_games=3))
    assert published["configured"] == page_values(config)


def test_a_page_setting_set_back_to_the_configurations_value_is_no_longer_kept(tmp_path):
    requests, kept = tmp_path / "requests", tmp_path / "page-settings.toml"
    requests.mkdir()
    kept.write_text("[table]\nmessage_seconds = 2\n")
    (requests / "settings.toml").write_text("[table]\nmessage_seconds = 0.3\n")  # FAST's, as configured
    with running_table(web_config(tmp_path, 2), fast_sim(players=False)) as (rig, spy):
        spy.wait_for(lambda p: p.stage == "turn")
        assert rig.controller.pacing.message_seconds == 0.3
    assert not kept.exists()


@pytest.mark.parametrize("content,reason", [
    (b"[table]\npage_seconds = \"fast\"\n", "[table] page_seconds must be a number, not 'fast'"),
    (b"[game]\nplayers = 3\n", "[game] players is not settable from the web page"),
    (b"[table]\npage_seconds = 7\n\xff\xfe", "cannot read it"),
])
def test_kept_page_settings_that_are_refused_are_said_set_aside_and_ignored(tmp_path, caplog, content, reason):
    kept = tmp_path / "page-settings.toml"
    kept.write_bytes(content)
    with caplog.at_level(logging.ERROR), running_table(web_config(tmp_path, 2), fast_sim(players=False)) as (rig, spy):
        spy.wait_for(lambda p: p.stage == "turn")
        assert rig.controller.pacing == FAST
    said = [record.getMessage() for record in caplog.records if record.levelno == logging.ERROR]
    assert len(said) == 1 and str(kept) in said[0] and reason in said[0] and "page-settings.toml.bad" in said[0]
    result = json.loads((tmp_path / "public" / "settings-result.json").read_text())
    assert result["ok"] is False and result["error"] == said[0]
    assert not kept.exists() and (tmp_path / "page-settings.toml.bad").read_bytes() == content


def test_the_camera_view_is_written_between_games_only_and_deleted_when_a_game_starts(tmp_path):
    requests, public = tmp_path / "requests", tmp_path / "public"
    requests.mkdir()
    (requests / "preview.want").touch()
    (requests / "doctor.want").touch()
    checks = [{"name": "board", "ok": None, "detail": "not a Raspberry Pi"}]
    config = web_config(tmp_path, 3, start=None)
    with running_table(config, SimOptions(players=False, camera="render"), devices=sim_devices(),
                       web_doctor=lambda: checks) as (rig, spy):
        spy.wait_for(lambda p: p.setup == ("start", None))
        deadline = time.monotonic() + 30
        while not (public / "preview.json").exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        info = json.loads((public / "preview.json").read_text())
        assert info["width"] <= 1024 and info["stands"] == {"1": "ok", "2": "ok", "3": "ok"}
        assert (public / "preview.jpg").read_bytes()[:2] == b"\xff\xd8"
        assert json.loads((public / "doctor.json").read_text())["checks"] == checks
        QueueFingers(rig.controller.queue).tap(1, "ok")
        spy.wait_for(lambda p: p.stage in ("deal", "turn"))
        shown = [public / "preview.jpg", public / "preview.json"]
        deadline = time.monotonic() + 10
        while any(path.exists() for path in shown) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert not any(path.exists() for path in shown)
        (requests / "preview.want").touch()
        spy.wait_for(lambda p: p.stage == "turn")
        # During a game the table does not look at the page's requests at all, and what was
        # being drawn when the game started is dropped (not written late).
        assert rig.controller.deadlines.when(Timer.REQUESTS) is None
        rig.controller.web.requests._worker.submit(lambda: None).result()
        assert not (public / "preview.jpg").exists()
        assert not _live(public)["between_games"]


@pytest.mark.parametrize("language", ["en", "de", "ru"])
def test_the_address_and_wifi_codes_read_back_and_their_text_loses_no_letter(language):
    renderer = ScreenRenderer()
    tr = Translator(language)
    address = screens.address_screen(tr, "http://coyote-pi.local/")
    wifi = screens.wifi_screen(tr, "coyote-pi", "k7d9-x2mq")
    assert _decoded(renderer.render(address)) == ["http://coyote-pi.local/"]
    assert _decoded(renderer.render(wifi)) == ["WIFI:T:WPA;S:coyote-pi;P:k7d9-x2mq;;"]
    font, width = renderer.small_bold, 58
    for line in (*address.lines, *wifi.lines):
        rows = split_to_width(line, font, width)
        assert all(font.getlength(row) <= width for row in rows)
        assert "".join(rows).replace(" ", "") == line.replace(" ", "")


def test_a_wifi_code_escapes_what_the_format_reserves():
    assert screens.wifi_payload('my;net:1', 'p"w\\,x') == 'WIFI:T:WPA;S:my\\;net\\:1;P:p\\"w\\\\\\,x;;'


def test_the_chord_keeps_its_meaning_in_the_game_and_gives_the_address_after_the_records_qr(tmp_path):
    config = web_config(tmp_path, 2)
    with running_table(config, fast_sim(players=False)) as (rig, spy):
        fingers = QueueFingers(rig.controller.queue)
        spy.wait_for(lambda p: p.stage == "turn" and p.seats == (1,))
        fingers.tap(1, "ok")
        spy.wait_for(lambda p: p.stage == "turn" and p.seats == (2,))
        fingers.chord(1)  # on a turn: the undo, as ever
        spy.wait_for(lambda p: p.stage == "turn" and p.seats == (1,) and p.undos == 1)
        assert rig.controller.web.access.showing is None
    with running_table(web_config(tmp_path / "over", 2), fast_sim(seed=2)) as (rig, spy):
        spy.wait_for(lambda p: p.stage == "over", timeout=60)
        fingers = QueueFingers(rig.controller.queue)
        fingers.chord(1)
        spy.wait_for_screen(lambda stage, s: s.qr and s.qr != "http://table.test/")  # the record's hash
        fingers.chord(2)
        spy.wait_for_screen(lambda stage, s: s.qr == "http://table.test/")


def test_the_unattended_table_asks_for_a_pin_at_a_games_end_as_a_person_does_and_plays_on(tmp_path):
    # make test-boot's table (tests only) has nobody to read its OLED: it presses for the
    # page's PIN at each game's end and leaves the PIN the screen showed for the test,
    # readable by the table's user alone; then the next game starts as before.
    pin_file = tmp_path / sim_rig.TEST_PIN_FILE
    next_game = sim_rig.NextGame(None, 0.01, pin_file)
    with running_table(web_config(tmp_path, 2), fast_sim(seed=2), listeners=[next_game],
                       new_game_when_over=True) as (rig, spy):
        next_game.events = rig.controller.queue
        spy.wait_for(lambda p: p.stage == "over", timeout=60)
        spy.wait_for(lambda p: p.stage != "over", timeout=30)  # the next game started by itself
        pin = pin_file.read_text().strip()
        deadline = time.monotonic() + 5
        while (published := _live(tmp_path / "public")["web"]["pin"]) is None and time.monotonic() < deadline:
            time.sleep(0.02)  # the bulletin's coalescing gap
        assert published is not None and published["sha256"] == pin_hash(pin, published["salt"])
        assert pin_file.stat().st_mode & 0o777 == 0o600
        assert any(s.title == "Web page PIN" for _, s in spy.screens)
        # make test-boot (ci/test-boot PIN_ASKED) waits for this line in the journal.
        assert any(line.endswith("seat 1 presses ok: a new PIN for the web page") for line in spy.lines)


def test_settings_left_while_the_table_waits_between_games_are_taken_for_the_next_game(tmp_path):
    requests = tmp_path / "requests"
    with running_table(web_config(tmp_path, 2, start=None), fast_sim(players=False)) as (rig, spy):
        spy.wait_for(lambda p: p.setup == ("start", None))
        requests.mkdir(exist_ok=True)
        # Written whole and renamed into place, as the page writes it (the table may look at any moment).
        (requests / "settings.toml.tmp").write_text("[table]\nmessage_seconds = 3\n")
        (requests / "settings.toml.tmp").rename(requests / "settings.toml")
        deadline = time.monotonic() + 30
        while (requests / "settings.toml").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert rig.controller.pacing.message_seconds == 3 and rig.controller.camera.pacing.message_seconds == 3
        assert json.loads((tmp_path / "public" / "settings-result.json").read_text())["ok"] is True


def test_the_camera_view_names_stands_missing_or_near_the_edge_by_the_doctors_rule():
    """Stands 40 mm further out than documented on the short side, and no stand at seat 3:
    the camera view says so per seat, as ``coyote-pi doctor`` would (vision.framing)."""
    from coyote_pi.sim.render import render_scene
    from coyote_pi.sim.scene import Conditions, TableScene
    from coyote_pi.vision import TableReader

    scene = TableScene(seats=4, present=(1, 2, 4), placement_jitter=0.0, stand_radius_mm=(440.0, 330.0))
    frame = render_scene(scene, width=1280, height=720, seed=2, conditions=Conditions.clean())
    found = web_requests._framing(TableReader().read(frame), (1280, 720))
    assert found["stands"] == {"1": "edge", "2": "ok", "3": "missing", "4": "ok"}
    assert set(found["framing"]) == {"1", "3"} and "bottom edge" in found["framing"]["1"]


def test_while_setup_counts_the_stands_its_frames_serve_the_camera_view(tmp_path):
    (tmp_path / "requests").mkdir()
    (tmp_path / "requests" / "preview.want").touch()
    config = web_config(tmp_path, None, start=None)
    with running_table(config, SimOptions(seats=3, players=False, camera="render"), devices=sim_devices()) as (rig, spy):
        spy.wait_for(lambda p: p.setup is not None and p.setup[0] == "players")
        deadline = time.monotonic() + 30
        while not (tmp_path / "public" / "preview.json").exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert json.loads((tmp_path / "public" / "preview.json").read_text())["stands"] == {"1": "ok", "2": "ok", "3": "ok"}
        assert rig.controller.camera.wait is not None  # the count goes on beside it
