"""Screenshots of each page, on a phone held upright and on a TV-sized screen.

``coyote-pi demo`` saves them into its output (and the README shows a few): the table,
the history, a round of it and the records, and with the PIN the setup page, each at
:data:`~coyote_pi.browser.PHONE` and :data:`~coyote_pi.browser.WIDE` size.
"""

from __future__ import annotations

import re
from pathlib import Path

from coyote_pi.browser import PHONE, WIDE, chromium, missing, resize, wait_for


def save_screenshots(url: str, folder: Path, pin: str | None = None) -> list[Path]:
    """Save ``web-PAGE-phone.png`` and ``web-PAGE-wide.png`` for each page of the page at
    ``url`` into ``folder``; returns the files. RuntimeError when no browser is here."""
    reason = missing()
    if reason:
        raise RuntimeError(f"no screenshots: {reason}")
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    base = url.rstrip("/")
    saved = []
    with chromium(PHONE) as browser:
        browser.get(base + "/history")
        games = re.findall(r'href="(/history/game-\d+)"', browser.page_source)
        pages = {"table": "/", "history": "/history", "records": "/records"}
        if games:
            browser.get(base + games[0])
            rounds = re.findall(r'href="(/history/game-\d+/round/\d+)"', browser.page_source)
            if rounds:
                pages["round"] = rounds[-1]
        if pin is not None:
            browser.get(base + "/login?next=/setup")
            browser.find_element("id", "pin").send_keys(pin)
            browser.find_element("css selector", "form.login button").click()
            if "/setup" in browser.current_url and browser.find_elements("id", "setup-status"):
                pages["setup"] = "/setup"
        for name, path in pages.items():
            for size_name, size in (("phone", PHONE), ("wide", WIDE)):
                resize(browser, size)
                browser.get(base + path)
                if name == "table":  # its first event has filled it in
                    wait_for(browser, "return document.body.getAttribute('data-seq') !== null")
                target = folder / f"web-{name}-{size_name}.png"
                browser.save_screenshot(str(target))
                saved.append(target)
    return saved
