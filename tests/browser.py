"""Headless Chromium for the site tests, driven by Selenium through Debian's chromedriver.

Why Selenium and not our own DevTools client (184 lines over ``--remote-debugging-pipe``, which
the tests used before): chromedriver ships with Chromium (Debian's ``chromium-driver`` is built
from the same source, so the two never disagree on the protocol), and it owns what a hand-made
client must get right itself: starting and ending the browser, waiting for the load, timeouts,
the logs. No pipe is wired in a forked child (``preexec_fn`` is unsafe in a process that runs
threads, as the SMTP tests' servers are). The driver is always the installed one
(``/usr/bin/chromedriver``): Selenium never downloads a browser or a driver here.

Enough to open a page, collect its console errors and warnings, failed loads and uncaught
exceptions (the browser log), evaluate an expression and take a screenshot of the whole page.
"""

from __future__ import annotations

import base64
import shutil
from dataclasses import dataclass, field
from typing import Any

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.wait import WebDriverWait

NAMES = ("chromium", "chromium-browser", "google-chrome")
DRIVERS = ("chromedriver",)
NEEDS = "apt-get install chromium chromium-driver"
"""What the browser tests need (``.ci/run`` installs it)."""


def find_chromium() -> str | None:
    """The Chromium executable on PATH, or None (also when its chromedriver is missing)."""
    if find_driver() is None:
        return None
    for name in NAMES:
        path = shutil.which(name)
        if path:
            return path
    return None


def find_driver() -> str | None:
    """The chromedriver executable on PATH, or None."""
    for name in DRIVERS:
        path = shutil.which(name)
        if path:
            return path
    return None


@dataclass
class PageVisit:
    """What loading one page showed."""

    url: str
    errors: list[str] = field(default_factory=list)
    """Console errors and warnings, failed loads and uncaught exceptions."""
    value: Any = None
    """The result of the expression evaluated after the load."""


class Chromium:
    """One headless browser with one tab; use as a context manager."""

    def __init__(self, executable: str, width: int = 1200, height: int = 1600,
                 timeout: float = 30.0) -> None:
        driver = find_driver()
        if driver is None:
            raise RuntimeError(f"no chromedriver on PATH ({NEEDS})")
        options = webdriver.ChromeOptions()
        options.binary_location = executable
        for argument in ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                         "--no-default-browser-check", "--disable-extensions", "--hide-scrollbars",
                         f"--window-size={width},{height}"):
            options.add_argument(argument)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        self.timeout = timeout
        self._driver = webdriver.Chrome(service=Service(driver), options=options)
        self._driver.set_page_load_timeout(timeout)
        self._driver.set_script_timeout(timeout)
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})

    def __enter__(self) -> Chromium:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._driver.quit()

    def send(self, method: str, params: dict[str, Any] | None = None, *,
             session: bool = True) -> dict[str, Any]:
        """One DevTools command to the page (``Emulation.*``, ``Page.*``); its result."""
        del session  # chromedriver sends every command to the page's session
        return self._driver.execute_cdp_cmd(method, params or {})

    def visit(self, url: str, expression: str = "null") -> PageVisit:
        """Load ``url``, wait for its load event (``document.readyState`` complete: every
        picture fetched), then evaluate ``expression``."""
        self._driver.get_log("browser")  # what earlier pages logged is theirs
        self._driver.get(url)
        WebDriverWait(self._driver, self.timeout).until(
            lambda d: d.execute_script("return document.readyState") == "complete")
        visit = PageVisit(url, value=self._driver.execute_script(f"return ({expression});"))
        for entry in self._driver.get_log("browser"):
            if entry.get("level") in ("SEVERE", "WARNING"):
                visit.errors.append(f"{entry.get('source', 'log')} {entry['level'].lower()}: "
                                    f"{entry.get('message', '')}")
        return visit

    def screenshot(self) -> bytes:
        """A PNG of the whole page as laid out now."""
        metrics = self.send("Page.getLayoutMetrics")
        size = metrics.get("cssContentSize") or metrics["contentSize"]
        data = self.send("Page.captureScreenshot",
                         {"format": "png", "captureBeyondViewport": True,
                          "clip": {"x": 0, "y": 0, "width": size["width"],
                                   "height": min(size["height"], 6000), "scale": 1}})["data"]
        return base64.b64decode(data)
