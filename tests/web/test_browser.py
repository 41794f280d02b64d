"""The page in a real browser (Debian's headless Chromium through Selenium): a game is
played while it watches the table page; what it shows after each event, no card of the
open round in any message it got or any DOM it showed, the PIN's refusals, a downloaded
record that replays, screenshots."""

from __future__ import annotations

import base64
import io
import json
import zipfile

from selenium.webdriver.support.ui import WebDriverWait

from coyote_pi.browser import wait_for
from coyote_pi.cli import main
from coyote_pi.engine import events
from coyote_pi.record import read_record
from coyote_pi.web.app import Options
from coyote_pi.web.screenshots import save_screenshots
from tests.web.conftest import (
    PIN,
    assert_no_open_card,
    json_cards,
    needs_chromium,
    open_round_number,
    served,
    spectated,
)

pytestmark = needs_chromium


def download(browser, path: str) -> bytes:
    """What the browser gets for ``path`` with its own cookie, as bytes."""
    encoded = browser.execute_async_script("""
        var done = arguments[arguments.length - 1];
        fetch(arguments[0]).then(function (r) { return r.arrayBuffer(); }).then(function (buffer) {
          var bytes = new Uint8Array(buffer), text = "";
          for (var i = 0; i < bytes.length; i++) { text += String.fromCharCode(bytes[i]); }
          done(btoa(text));
        });""", path)
    return base64.b64decode(encoded)


def test_the_table_page_follows_a_game_and_never_gets_an_open_card(tmp_path, browser, folders):
    game = spectated(tmp_path, players=3, variant="trickster", seed=5)
    with served(folders, Options(test_hook=True)) as port:
        browser.get(f"http://127.0.0.1:{port}/")
        wait_for(browser, "return document.body.getAttribute('data-seq') !== null")
        bids = 0
        while (event := game.step()) is not None:
            wait_for(browser, f"return document.body.getAttribute('data-seq') == '{game.seq}'")
            dom = browser.execute_script("return document.getElementById('live').innerHTML")
            assert_no_open_card(game, html=dom)
            if isinstance(event, events.Bid):
                bids += 1
                last = browser.find_elements("css selector", ".bid-list li[data-bid]")[-1]
                assert (last.get_attribute("data-seat"), last.get_attribute("data-bid")) == (
                    str(event.seat), str(event.amount))
            if game.game.turn is not None:
                assert browser.find_element("css selector", "[data-turn]").get_attribute("data-turn") == str(game.game.turn)
        messages = browser.execute_script("return window.coyoteMessages")
        assert bids > 5 and len(messages) > 20
        for message in messages:
            data = json.loads(message["data"])
            if data["state"]["round_open"]:
                assert [c for c in json_cards(data) if c[1] == data["state"]["round"]] == []
        assert "Seat" in browser.find_element("css selector", ".big").text  # "Seat N wins!"


def test_setup_and_downloads_refuse_without_pin_and_during_a_round(tmp_path, browser, folders):
    game = spectated(tmp_path, players=2, variant="basic", seed=3)
    game.play_until(lambda g, event: isinstance(event, events.Bid))
    game.set_pin(PIN)
    assert open_round_number(game) == 1
    with served(folders) as port:
        base = f"http://127.0.0.1:{port}"
        browser.get(base + "/setup")
        assert browser.current_url.startswith(base + "/login")
        browser.find_element("id", "pin").send_keys("999999")
        browser.find_element("css selector", "form.login button").click()
        # Each click sends the form; the answer is a new page, which may come late on a
        # loaded machine: wait for it rather than look at once.
        assert WebDriverWait(browser, 20).until(lambda b: b.find_elements("id", "login-error"))[0].is_displayed()
        browser.find_element("id", "pin").send_keys(PIN)
        browser.find_element("css selector", "form.login button").click()
        assert WebDriverWait(browser, 20).until(lambda b: b.find_elements("id", "refused"))[0].text  # a round is open
        browser.get(base + "/records/game-0001.zip")
        assert browser.find_element("id", "refused").text
        game.play_to_end()
        browser.get(base + "/setup")
        assert browser.find_elements("css selector", "form.settings-form")
        archive = download(browser, "/records/game-0001.zip")
        saved = save_screenshots(base, tmp_path / "shots", pin=None)
    zipfile.ZipFile(io.BytesIO(archive)).extractall(tmp_path / "download")
    record = tmp_path / "download" / "game-0001" / "game-0001.jsonl"
    assert main(["replay", str(record), "--expect", read_record(game.path).fingerprint,
                 "--photos", str(record.with_suffix(".photos"))]) == 0
    assert {path.name for path in saved} >= {"web-table-phone.png", "web-round-wide.png", "web-records-phone.png"}
    assert all(path.stat().st_size > 2000 for path in saved)


def test_the_setup_page_says_when_its_connection_is_lost(tmp_path, browser, folders):
    """The page server stops under an open setup page: the page says so instead of going
    quietly stale (a restarted server has forgotten the session: reloading asks for the PIN)."""
    spectated(tmp_path, players=2, variant="basic", seed=3).set_pin(PIN)
    with served(folders) as port:
        browser.get(f"http://127.0.0.1:{port}/login?next=/setup")
        browser.find_element("id", "pin").send_keys(PIN)
        browser.find_element("css selector", "form.login button").click()
        WebDriverWait(browser, 20).until(lambda b: b.find_elements("css selector", "form.settings-form"))
        assert not browser.find_element("id", "setup-connection").is_displayed()
        wait_for(browser, "return document.readyState === 'complete'")
    lost = WebDriverWait(browser, 20).until(lambda b: b.find_element("id", "setup-connection").is_displayed()
                                            and b.find_element("id", "setup-connection"))
    assert "reload the page" in lost.text


def test_a_phone_shows_the_pages_words_without_a_sideways_scroll(tmp_path, browser, folders):
    """At phone size: the current bid as a headline, a visible legend of the eyes, the
    replay command wrapped inside the page, the downloads' PIN note, the PIN's real help."""
    game = spectated(tmp_path, players=3, variant="trickster", seed=5)
    game.set_pin(PIN)
    bid = game.play_until(lambda g, event: isinstance(event, events.Bid))
    with served(folders, Options(test_hook=True)) as port:
        base = f"http://127.0.0.1:{port}"
        browser.get(base + "/")
        wait_for(browser, f"return document.body.getAttribute('data-seq') == '{game.seq}'")
        # Read in one go: the page's script may replace the live part at any moment.
        shown = browser.execute_script("""
            var h = document.getElementById('headline'), l = document.getElementById('eyes-legend');
            return [h.innerText, h.offsetHeight > 0, l.innerText, l.offsetHeight > 0,
                    l.querySelectorAll('.eye').length];""")
        shown[2] = " ".join(shown[2].split())  # the eyes' icons are inline boxes between the words
        assert shown == [f"Current bid: {bid.amount} by seat {bid.seat}", True, "open eye · closed eye", True, 2]
        game.play_until(lambda g, event: False)  # to the end: the game's downloads are offered
        browser.get(base + "/records")
        command = browser.find_element("css selector", "pre.command")
        assert browser.execute_script("return arguments[0].scrollWidth <= arguments[0].clientWidth", command)
        assert browser.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
        assert browser.find_element("css selector", ".needs-pin").is_displayed()
        browser.get(base + "/login")
        assert "on the “Who starts?” screen" in browser.find_element("tag name", "main").text
