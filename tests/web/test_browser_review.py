"""A reviewed game's pages in Debian's headless Chromium, on a phone and a wide screen:
each answers, shows its review, and fits the screen's width (no sideways scrolling)."""

from __future__ import annotations

import pytest

from coyote_pi.browser import PHONE, WIDE, resize
from coyote_pi.web.bulletin import Folders
from tests.web.conftest import Client, needs_chromium, served, spectated

pytestmark = needs_chromium

#: How far the page reaches beyond the window's width (0: it fits).
OVERFLOW = "return document.documentElement.scrollWidth - window.innerWidth;"


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory):
    root = tmp_path_factory.mktemp("reviewed")
    game = spectated(root, players=4, variant="trickster", seed=5)
    game.play_to_end()
    with served(Folders.beside(root / "games")) as port:
        client = Client(port)
        paths = ["/history/game-0001", *(f"/history/game-0001/round/{n}" for n in range(1, game.game.round_number + 1))]
        assert all(client.get(path).status == 200 for path in paths)  # the reviews are made (and cached) here
        yield f"http://127.0.0.1:{port}", paths


@pytest.mark.parametrize("size", [PHONE, WIDE], ids=["phone", "wide"])
def test_every_page_of_a_reviewed_game_shows_its_review_and_fits_the_screen(browser, reviewed, size, tmp_path):
    base, paths = reviewed
    resize(browser, size)
    for path in paths:
        browser.get(base + path)
        selector = "#review" if path.endswith("game-0001") else "[data-review-line]"
        shown = browser.find_elements("css selector", selector)
        assert shown and shown[0].is_displayed(), path
        assert browser.execute_script(OVERFLOW) <= 1, f"{path} is wider than a {size[0]} px screen"
    browser.save_screenshot(str(tmp_path / f"review-{size[0]}.png"))
