"""The page's layout in Debian's headless Chromium, measured: a list's numbers fit inside
the page, an error's background covers no line above it, the replay command wraps only
between its words. Each check saves the screenshot it looked at (``--basetemp`` keeps them)."""

from __future__ import annotations

import pytest

from coyote_pi.browser import PHONE, WIDE, resize
from coyote_pi.web.bulletin import Folders
from tests.web.conftest import needs_chromium, served, spectated

pytestmark = needs_chromium

#: A narrow phone (the smallest width the page is made for).
NARROW = (320, 640)

#: Each ordered list's widest number, and where its marker starts beside the list's own left
#: edge (a marker outside its list sits in the page's margin, flush with the screen's edge).
MARKERS = """
    var found = [];
    document.querySelectorAll('ol').forEach(function (ol) {
      var items = ol.querySelectorAll(':scope > li');
      if (!items.length) return;
      var li = items[items.length - 1], style = getComputedStyle(li);
      var canvas = document.createElement('canvas').getContext('2d');
      canvas.font = style.fontWeight + ' ' + style.fontSize + ' ' + style.fontFamily;
      var marker = canvas.measureText(items.length + '. ').width;
      var start = li.getBoundingClientRect().left + parseFloat(style.paddingLeft) - marker;
      found.push([ol.className || ol.parentElement.className, items.length, start - ol.getBoundingClientRect().left]);
    });
    return found;"""

#: For each error box: how far its background reaches above the bottom of the text before it
#: in the same parent (positive: it covers part of that text).
ERROR_OVERLAPS = """
    var found = [];
    document.querySelectorAll('.error, .refused').forEach(function (box) {
      if (!box.offsetHeight) return;
      var before = document.createRange();
      before.setStart(box.parentElement, 0);
      before.setEndBefore(box);
      var bottom = -Infinity;
      Array.prototype.forEach.call(before.getClientRects(), function (r) {
        if (r.height > 0) bottom = Math.max(bottom, r.bottom); });
      found.push([box.textContent.slice(0, 40), bottom > -Infinity ? bottom - box.getBoundingClientRect().top : 0]);
    });
    return found;"""


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    """A long 6-player game (17 rounds), and an invalid record beside it."""
    root = tmp_path_factory.mktemp("layout")
    game = spectated(root, players=6, variant="trickster", seed=5)
    game.play_to_end()
    lines = game.path.read_bytes().split(b"\n")
    (root / "games" / "game-0002.jsonl").write_bytes(b"\n".join([lines[0], lines[1].replace(b'"seq":1', b'"seq":7'),
                                                                 *lines[2:]]))
    with served(Folders.beside(root / "games")) as port:
        yield f"http://127.0.0.1:{port}", root


@pytest.mark.parametrize("size", [NARROW, PHONE, WIDE], ids=["narrow", "phone", "wide"])
def test_every_lists_numbers_sit_inside_the_page(browser, page, size, tmp_path):
    base, _ = page
    resize(browser, size)
    lists = 0
    for path in ("/", "/history/game-0001", "/history/game-0001/round/1"):
        browser.get(base + path)
        for name, count, start in browser.execute_script(MARKERS):
            lists += count >= 10
            assert start >= 0, f"{path}: the numbers of list {name!r} ({count} items) start {-start:.1f} px left of it"
    browser.save_screenshot(str(tmp_path / f"rounds-{size[0]}.png"))
    assert lists >= 2  # the game's rounds, on its page and on the table page


def test_an_errors_background_covers_no_line_above_it(browser, page, tmp_path):
    base, _ = page
    resize(browser, NARROW)
    for path in ("/history", "/history/game-0002", "/history/game-0002/round/1", "/records"):
        browser.get(base + path)
        browser.save_screenshot(str(tmp_path / f"{path.strip('/').replace('/', '-')}.png"))
        overlaps = browser.execute_script(ERROR_OVERLAPS)
        assert overlaps, f"{path}: no error shown"
        for text, overlap in overlaps:
            assert overlap <= 0.5, f"{path}: the error {text!r} covers {overlap:.1f} px of the line above it"


@pytest.mark.parametrize("size", [NARROW, PHONE], ids=["narrow", "phone"])
def test_the_replay_command_wraps_only_between_its_words(browser, page, size, tmp_path):
    base, _ = page
    resize(browser, size)
    browser.get(base + "/records")
    browser.save_screenshot(str(tmp_path / "records.png"))
    shown = browser.execute_script("""
        var pre = document.querySelector('#game-0001 pre.command');
        var words = Array.prototype.map.call(pre.querySelectorAll('.word'), function (w) {
          return [w.textContent, w.getClientRects().length]; });
        return [words, Math.round(pre.getBoundingClientRect().height / parseFloat(getComputedStyle(pre).lineHeight)),
                pre.scrollWidth <= pre.clientWidth];""")
    words, rows, fits = shown
    assert [word for word, _ in words][:4] == ["coyote-pi", "replay", "game-0001/game-0001.jsonl", "--expect"]
    assert rows >= 2 and fits  # it wraps, inside the page
    broken = [word for word, pieces in words if pieces != 1]
    assert not broken, f"broken inside: {broken}"
