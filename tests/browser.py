"""Headless Chromium driven over the DevTools protocol on a pipe (``--remote-debugging-pipe``).

Standard library only: Chromium reads commands on its fd 3 and writes replies
and events on its fd 4, each a JSON message ended by a NUL byte. Enough of the
protocol to open a page, collect its console messages, log entries and
uncaught exceptions, evaluate an expression and take a screenshot.
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any

NAMES = ("chromium", "chromium-browser", "google-chrome")


def find_chromium() -> str | None:
    """The Chromium executable on PATH, or None."""
    for name in NAMES:
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
        self.timeout = timeout
        self._profile = tempfile.mkdtemp(prefix="agot-chromium-")
        to_child_r, self._to_child = os.pipe()
        self._from_child, from_child_w = os.pipe()

        def wire() -> None:  # in the child, before exec: the pipe ends become fds 3 and 4
            high_r = fcntl.fcntl(to_child_r, fcntl.F_DUPFD, 10)
            high_w = fcntl.fcntl(from_child_w, fcntl.F_DUPFD, 10)
            os.dup2(high_r, 3)
            os.dup2(high_w, 4)

        self._proc = subprocess.Popen(
            [executable, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--no-default-browser-check", "--disable-extensions", "--hide-scrollbars",
             "--remote-debugging-pipe", f"--user-data-dir={self._profile}",
             f"--window-size={width},{height}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=wire, close_fds=False)
        os.close(to_child_r)
        os.close(from_child_w)
        self._buffer = b""
        self._next_id = 0
        self._events: list[dict[str, Any]] = []
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self._session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})[
            "sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            self.send(f"{domain}.enable", session=True)
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
                  session=True)

    def __enter__(self) -> Chromium:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        with contextlib.suppress(OSError, RuntimeError, TimeoutError):
            self.send("Browser.close")
        try:
            self._proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        for fd in (self._to_child, self._from_child):
            with contextlib.suppress(OSError):
                os.close(fd)
        shutil.rmtree(self._profile, ignore_errors=True)

    # --- protocol ---------------------------------------------------------------------------

    def _read_message(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no message from Chromium in time")
            ready, _, _ = select.select([self._from_child], [], [], left)
            if ready:
                chunk = os.read(self._from_child, 1 << 16)
                if not chunk:
                    raise RuntimeError("Chromium closed its DevTools pipe")
                self._buffer += chunk
        message, _, self._buffer = self._buffer.partition(b"\0")
        return json.loads(message)

    def send(self, method: str, params: dict[str, Any] | None = None, *,
             session: bool = False) -> dict[str, Any]:
        """Send a command and wait for its reply; events that arrive meanwhile are kept."""
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = self._session
        os.write(self._to_child, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            if "method" in reply:
                self._events.append(reply)

    def _wait_event(self, method: str) -> dict[str, Any]:
        deadline = time.monotonic() + self.timeout
        while True:
            for i, event in enumerate(self._events):
                if event["method"] == method:
                    return self._events.pop(i)
            self._events.append(self._read_message(deadline))

    # --- what the tests use -----------------------------------------------------------------

    def visit(self, url: str, expression: str = "null") -> PageVisit:
        """Load ``url``, wait for its load event, then evaluate ``expression`` (by value)."""
        self._events.clear()
        reply = self.send("Page.navigate", {"url": url}, session=True)
        visit = PageVisit(url)
        if reply.get("errorText"):
            visit.errors.append(f"navigation failed: {reply['errorText']}")
            return visit
        self._wait_event("Page.loadEventFired")
        evaluated = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True},
                              session=True)
        if "exceptionDetails" in evaluated:
            raise RuntimeError(f"{expression}: {evaluated['exceptionDetails']}")
        visit.value = evaluated.get("result", {}).get("value")
        for event in self._events:
            params = event.get("params", {})
            if event["method"] == "Runtime.consoleAPICalled" and params.get("type") in ("error",
                                                                                          "warning",
                                                                                          "assert"):
                visit.errors.append(f"console {params['type']}: {params.get('args')}")
            elif event["method"] == "Runtime.exceptionThrown":
                visit.errors.append(f"exception: {params.get('exceptionDetails')}")
            elif event["method"] == "Log.entryAdded" and params.get("entry", {}).get("level") in (
                    "error", "warning"):
                entry = params["entry"]
                visit.errors.append(f"log {entry['level']}: {entry.get('text')} {entry.get('url', '')}")
        return visit

    def screenshot(self) -> bytes:
        """A PNG of the whole page as laid out now."""
        metrics = self.send("Page.getLayoutMetrics", session=True)
        size = metrics.get("cssContentSize") or metrics["contentSize"]
        data = self.send("Page.captureScreenshot",
                         {"format": "png", "captureBeyondViewport": True,
                          "clip": {"x": 0, "y": 0, "width": size["width"],
                                   "height": min(size["height"], 6000), "scale": 1}},
                         session=True)["data"]
        return base64.b64decode(data)
