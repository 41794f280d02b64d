"""A headless Chromium driven by Selenium, for the web page's bench, screenshots and tests.

Debian's ``chromium`` and ``chromium-driver`` packages, never a browser of Selenium's
own: the driver is named by its path (so Selenium Manager has nothing to look up or
download) and the browser starts with a fresh profile, no background network, no sync,
no component updates. :func:`missing` says why no browser can be had, for a clear skip.
"""

from __future__ import annotations

import contextlib
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from selenium.webdriver.chrome.webdriver import WebDriver

#: Debian's browser and driver (apt: chromium chromium-driver).
CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
#: A phone held upright and a TV-sized screen.
PHONE, WIDE = (390, 844), (1920, 1080)


def missing() -> str | None:
    """Why :func:`chromium` cannot start here, or None when it can."""
    for path, package in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")):
        if not path.is_file():
            return f"{path} is missing (apt package {package}; make test installs it)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    return None


@contextlib.contextmanager
def chromium(size: tuple[int, int] = PHONE) -> Iterator[WebDriver]:
    """A headless Chromium window of ``size`` (CSS pixels), closed afterwards."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="coyote-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                     "--disable-background-networking", "--disable-component-update", "--disable-sync",
                     "--disable-dev-shm-usage", "--hide-scrollbars", f"--user-data-dir={profile}",
                     f"--window-size={size[0]},{size[1]}"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)
    try:
        driver.set_window_size(*size)
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def resize(driver: WebDriver, size: tuple[int, int]) -> None:
    """Make the page's viewport ``size`` (headless windows have no frame to subtract)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": size[0] < 600})


def wait_for(driver: WebDriver, script: str, timeout: float = 10.0) -> object:
    """Run ``script`` in the page until it returns something true; that value. The page's
    own events drive it, so the loop only watches (every 5 ms); RuntimeError at the timeout."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = driver.execute_script(script)
        if value:
            return value
        time.sleep(0.005)
    raise RuntimeError(f"the page never got there: {script[:100]}")
