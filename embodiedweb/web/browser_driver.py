"""The ``browser`` web driver: Playwright (sync API) driving Debian's Chromium on the local server.

One Chromium per process (module-level, shared by every driver, relaunched when it died), one
BrowserContext per driver (reused across resets), one page per tab. Requests that do not go to
loopback fail (see ``CHROMIUM_ARGS``), so the browser never leaves the local sites.

The agent's view is built like the text driver's: after each action the page is left to settle,
one script copies the live form state into attributes (values, checked, selected), gives an id to
any element the server did not number, and returns the DOM; :func:`axtree.build_tree` turns it
into the same tree text. Bad input is answered with the same messages (:mod:`messages`).

Faults never end a run. Every call into the browser runs under a wall-clock watchdog (``watchdog_s``):
a call that outlives it (a stopped renderer, browser or driver) has the whole browser stack killed,
which makes the call return. A fault (that, a crashed renderer, a dead Chromium, a dead Playwright
driver) is recovered at once: a new Chromium (and Playwright driver) when needed, and the tabs
reopened at their last pages. Reopening reads state without changing it (``RESTORE_HEADER``), so the
sites' server-side state (cart, searches, views) is exactly what the agent made it.
"""

from __future__ import annotations

import atexit
import logging
import os
import re
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from io import BytesIO
from typing import Any

import numpy as np

from embodiedweb.web import messages as msg
from embodiedweb.web.axtree import BID, PageTree, build_tree, elements_by_bid
from embodiedweb.web.driver import WebDriver, validate_key_comb
from embodiedweb.web.server import LocalServer, get_server
from embodiedweb.web.urls import UrlRefused, canonical, path_of, to_local_path
from web_sites.asgi import RESTORE_HEADER, SESSION_COOKIE
from web_sites.dom import parse_html
from web_sites.framework import WebApp

log = logging.getLogger(__name__)

def _find_chromium() -> str:
    """Debian's old headless shell when installed (about 40 % less memory and faster than the full
    browser in headless mode), else Debian's chromium; ``EWA_CHROMIUM`` overrides both."""
    if os.environ.get("EWA_CHROMIUM"):
        return os.environ["EWA_CHROMIUM"]
    for path in ("/usr/lib/chromium/chromium-headless-shell", "/usr/bin/chromium"):
        if os.path.exists(path):
            return path
    return "/usr/bin/chromium"


CHROMIUM = _find_chromium()
ACTION_TIMEOUT_MS = 5000
NAV_TIMEOUT_MS = 10000
# a click or Enter expected to navigate that starts no navigation this soon is taken to have done nothing
NAV_START_TIMEOUT_MS = 2000
LAUNCH_TIMEOUT_MS = 30000
#: default wall-clock limit of one call into the browser (a few seconds over the navigation timeout)
WATCHDOG_S = NAV_TIMEOUT_MS / 1000 + 5
#: wall-clock limit of a recovery (a new Chromium, the tabs reopened)
RECOVERY_S = 20.0
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    # RenderDocument (a new frame, compositor and tile pool for every navigation; the old pools' tiles
    # wait a second to expire) holds ~45 MB of shared memory at an agent's pace; without it the frame
    # and its tiles are reused, and navigations are faster too.
    "--disable-features=BackForwardCache,Translate,OptimizationHints,MediaRouter,AutofillServerCommunication,"
    "InterestFeedContentSuggestions,CalculateNativeWinOcclusion,HttpsUpgrades,PaintHolding,RenderDocument",
    # The browser never leaves the local sites: names resolve to nothing, and everything that is not
    # loopback goes to a dead proxy (this also covers IP literals). Cheaper than request routing,
    # which would also turn off the HTTP cache.
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
    "--proxy-server=http://127.0.0.1:9", "--proxy-bypass-list=127.0.0.1;localhost",
    "--disable-dev-shm-usage", "--disable-extensions", "--mute-audio", "--disable-breakpad",
    "--disable-renderer-backgrounding", "--disable-background-timer-throttling",
    "--disable-backgrounding-occluded-windows", "--disable-ipc-flooding-protection",
    # Memory: no SwiftShader (compositing stays software; WebGL is not used by the sites), and small
    # V8 heaps in the renderers. The pages hold under 1 MB of JS heap each, but
    # the documents of earlier navigations (and the Blink memory they own) live until V8's next full
    # GC, which a roomy heap puts off: with a 32 MB old space a renderer grew to ~135 MB over 100
    # navigations, with 16 MB and --optimize-for-size it stays near 95 MB, at no measurable step cost.
    "--disable-software-rasterizer",
    # Fewer processes: the compositor and the network service run in the browser process and renderers
    # start without zygotes. About -14 MB PSS, and steps are no slower on two cores (fewer processes and
    # IPC hops); the sandbox these would matter for is off anyway (--no-sandbox: Chromium runs as root).
    "--in-process-gpu", "--no-zygote", "--enable-features=NetworkServiceInProcess2",
    "--js-flags=--max-old-space-size=16 --max-semi-space-size=1 --optimize-for-size",
    "--renderer-process-limit=8",
]
# a small heap for Playwright's node driver (it only relays protocol messages)
NODE_OPTIONS = "--max-old-space-size=64 --max-semi-space-size=1"


class BrowserUnavailable(RuntimeError):
    """Chromium could not be started (missing binary, or Playwright failed to launch it)."""


def _first_line(e: BaseException) -> str:
    return (str(e).strip().splitlines() or [type(e).__name__])[0][:200]


class BrowserDied(RuntimeError):
    """The browser failed and could not be recovered now; the next call tries again."""


# one Playwright + Chromium per process ----------------------------------------------------------
_lock = threading.RLock()
_pw: Any = None
_pw_pid: int | None = None
_browser: Any = None


def _launch() -> Any:
    from playwright.sync_api import sync_playwright

    global _pw, _browser, _pw_pid
    if not os.path.exists(CHROMIUM):
        raise BrowserUnavailable(f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)")
    last: Exception | None = None
    for _ in range(2):
        try:
            if _pw is None:
                saved = os.environ.get("NODE_OPTIONS")
                os.environ["NODE_OPTIONS"] = (saved + " " if saved else "") + NODE_OPTIONS
                try:
                    before = set(_driver_pids())
                    _pw = sync_playwright().start()
                    _pw_pid = next(iter(set(_driver_pids()) - before), None)
                finally:
                    if saved is None:
                        os.environ.pop("NODE_OPTIONS", None)
                    else:
                        os.environ["NODE_OPTIONS"] = saved
            _browser = _pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS,
                                           timeout=LAUNCH_TIMEOUT_MS, handle_sigint=False, handle_sigterm=False,
                                           handle_sighup=False)
            return _browser
        except Exception as e:  # a dead Playwright driver: start it again once
            last = e
            _stop_playwright()
    raise BrowserUnavailable(f"could not launch Chromium at {CHROMIUM}: {last}")


def get_browser() -> Any:
    """The process-wide Chromium, launched on first use and again if it (or Playwright's driver) died."""
    with _lock:
        if _browser is not None and _browser.is_connected() and _driver_alive():
            return _browser
        if _pw is not None and not _driver_alive():
            _forget_stack()
        if _browser is not None:
            try:
                _browser.close()
            except Exception:
                pass
        return _launch()


def browser_pid() -> int | None:
    """Process id of the shared Chromium's main process (a child of Playwright's driver), if running."""
    if _browser is None or not _browser.is_connected():
        return None
    for pid in child_pids(os.getpid(), recursive=True):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                argv = f.read().split(b"\0")
        except OSError:
            continue
        if argv and argv[0].decode(errors="replace").endswith(("chromium", "chrome", "chromium-headless-shell", "headless_shell")) and not any(
                a.startswith(b"--type=") for a in argv):
            return pid
    return None


def _argv(pid: int) -> list[bytes]:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().split(b"\0")
    except OSError:
        return []


def _driver_pids() -> list[int]:
    """Playwright's node driver processes started by this process."""
    out = []
    for pid in child_pids(os.getpid(), recursive=False):
        argv = _argv(pid)
        if argv and argv[0].endswith(b"node") and any(b"playwright" in a for a in argv):
            out.append(pid)
    return out


def stack_pids() -> dict[str, list[int]]:
    """This process's browser stack by role: ``driver`` (Playwright's node driver), ``chromium`` (the
    browser's main process), ``renderer`` and ``other`` (Chromium's helper processes)."""
    out: dict[str, list[int]] = {"driver": _driver_pids(), "chromium": [], "renderer": [], "other": []}
    for d in out["driver"]:
        for pid in child_pids(d):
            line = b" ".join(_argv(pid))  # renderers rewrite their argv into one string
            role = "renderer" if b"--type=renderer" in line else "other" if b"--type=" in line else "chromium"
            out[role].append(pid)
    return out


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0] not in (b"Z", b"X")
    except (OSError, IndexError):
        return False


def _driver_alive() -> bool:
    """Whether Playwright's driver process still runs (a dead one leaves ``is_connected()`` true)."""
    if _pw is None:
        return False
    if _pw_pid is None:
        return True  # not known (not Linux): trust the connection
    return _alive(_pw_pid)


def _forget_stack() -> None:
    """Drop the Playwright and Chromium handles without talking to them (they may be dead or stuck)."""
    global _pw, _browser, _pw_pid
    pw, _pw, _browser, _pw_pid = _pw, None, None, None
    if pw is not None:
        try:
            pw.stop()  # returns at once when the driver is gone
        except Exception:
            pass


def kill_stack() -> None:
    """SIGKILL Playwright's driver and every Chromium process under it, then forget them; the next
    :func:`get_browser` starts new ones. Works on stopped (SIGSTOP) processes too."""
    with _lock:
        _kill_processes()
        _forget_stack()


def _kill_processes() -> None:
    """SIGKILL the browser stack's processes (safe from any thread: no Playwright call)."""
    pids: list[int] = []
    for d in ([_pw_pid] if _pw_pid else []) + _driver_pids():
        if d not in pids:
            pids += [d, *child_pids(d, recursive=True)]
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    deadline = time.monotonic() + 2.0
    while any(_alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.01)


class Watchdog:
    """Kills the browser stack when a guarded call runs past its deadline (one thread per process).

    Playwright's sync API cannot be interrupted from another thread; killing the processes it waits
    for makes the waiting call raise at once, and the driver then recovers.
    """

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._deadline: float | None = None
        self._thread: threading.Thread | None = None
        self.fired = 0

    @contextmanager
    def watch(self, seconds: float) -> Iterator[None]:
        """Arm for ``seconds`` (an outer arming stays in force if it ends sooner)."""
        with self._cond:
            outer = self._deadline
            mine = time.monotonic() + seconds
            self._deadline = mine if outer is None else min(outer, mine)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="ewa-browser-watchdog", daemon=True)
                self._thread.start()
            self._cond.notify()
        try:
            yield
        finally:
            with self._cond:
                self._deadline = outer

    def _run(self) -> None:
        while True:
            with self._cond:
                while self._deadline is None:
                    self._cond.wait()
                left = self._deadline - time.monotonic()
                if left > 0:
                    self._cond.wait(left)
                    continue
                self._deadline = None
                self.fired += 1
            log.info("a browser call outlived its watchdog: killing the browser stack")
            _kill_processes()


WATCHDOG = Watchdog()


class _DeadDriverNoise(logging.Filter):
    """Playwright's transport leaves a future failed with this when its driver is killed; the fault is
    handled (and said in the observation), so asyncio's "never retrieved" report is noise."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "Connection closed while reading from the driver" not in str(record.exc_info and record.exc_info[1]) \
            and "Connection closed while reading from the driver" not in record.getMessage()


logging.getLogger("asyncio").addFilter(_DeadDriverNoise())


def child_pids(pid: int, recursive: bool = True) -> list[int]:
    out: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for t in tasks:
        try:
            with open(f"/proc/{pid}/task/{t}/children") as f:
                kids = [int(x) for x in f.read().split()]
        except OSError:
            continue
        for k in kids:
            out.append(k)
            if recursive:
                out.extend(child_pids(k, True))
    return out


def _stop_playwright() -> None:
    global _browser
    if _browser is not None and _driver_alive():
        try:
            _browser.close()
        except Exception:
            pass
    _browser = None
    _forget_stack()


#: the Playwright and Chromium handles a forked child inherited from its parent, kept referenced so that no
#: finalizer of theirs runs in the child (their pipes lead to the parent's driver)
_INHERITED: list[Any] = []


def _after_fork_in_child() -> None:
    """A forked process (an async vector env's worker) starts its own browser stack: the handles it inherited
    are the parent's (one Playwright connection cannot serve two processes; a call from here would corrupt the
    parent's), and so are the locks, which a parent thread may have held at the fork."""
    global _pw, _browser, _pw_pid, _lock
    if _pw is not None or _browser is not None:
        _INHERITED.append((_pw, _browser))
    _pw, _browser, _pw_pid = None, None, None
    _lock = threading.RLock()
    WATCHDOG.__init__()


os.register_at_fork(after_in_child=_after_fork_in_child)


@atexit.register
def shutdown_browser() -> None:
    """Stop the shared Chromium and Playwright's driver (at exit; the next driver use starts them again)."""
    with _lock:
        _stop_playwright()


# the page snapshot ------------------------------------------------------------------------------
SNAPSHOT_JS = r"""() => {
  const NOVALUE = new Set(['checkbox', 'radio', 'submit', 'button', 'reset', 'image', 'hidden', 'file']);
  const selects = Array.from(document.querySelectorAll('select'));
  const chosen = selects.map(s => s.selectedIndex);
  for (const el of document.querySelectorAll('input')) {
    const t = (el.getAttribute('type') || '').toLowerCase();
    if (t === 'checkbox' || t === 'radio') {
      if (el.checked !== el.hasAttribute('checked')) {
        if (el.checked) el.setAttribute('checked', ''); else el.removeAttribute('checked');
      }
    } else if (!NOVALUE.has(t) && el.getAttribute('value') !== el.value) {
      el.setAttribute('value', el.value);
    }
  }
  for (const el of document.querySelectorAll('textarea')) {
    if (el.textContent !== el.value) el.textContent = el.value;
  }
  selects.forEach((s, i) => {
    const sel = Array.from(s.options).map(o => o.selected);
    Array.from(s.options).forEach((o, j) => {
      if (sel[j] !== o.hasAttribute('selected')) {
        if (sel[j]) o.setAttribute('selected', ''); else o.removeAttribute('selected');
      }
    });
    if (!s.multiple && s.selectedIndex !== chosen[i]) s.selectedIndex = chosen[i];
  });
  const SKIP = new Set(['SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT']);
  if (document.body) {
    let n = window.__ewaNextBid || 0;
    for (const el of document.body.querySelectorAll('*')) {
      if (!el.hasAttribute('data-bid') && !SKIP.has(el.tagName)) el.setAttribute('data-bid', 'd' + (n++));
    }
    window.__ewaNextBid = n;
  }
  return document.documentElement.outerHTML;
}"""

# Where a click lands: a point inside the element's own boxes, not its bounding box's centre (for a link
# that wraps onto two lines that centre lies on the parent, or on the next link). The first client rect
# (line box) with a size, cut to the viewport, is tried first, then the others, a few points each;
# ``document.elementFromPoint`` must find the element itself or one of its descendants there. Returns
# [x, y], null when the element is not shown, or "covered" when it has boxes but no point of them reaches
# it (covered, or clipped out of view): the click is then dispatched on the element itself (CLICK_JS).
POINT_JS = r"""(b) => {
  const el = document.querySelector('[data-bid="' + b + '"]');
  if (!el) return null;
  const style = getComputedStyle(el);
  if (style.visibility === 'hidden' || style.display === 'none') return null;
  el.scrollIntoView({block: 'nearest', inline: 'nearest'});
  const rects = Array.from(el.getClientRects()).filter(r => r.width > 0 && r.height > 0);
  if (!rects.length) return null;
  const W = Math.min(window.innerWidth, document.documentElement.clientWidth || window.innerWidth);
  const H = Math.min(window.innerHeight, document.documentElement.clientHeight || window.innerHeight);
  for (const r of rects) {
    const left = Math.max(r.left, 0), right = Math.min(r.right, W);
    const top = Math.max(r.top, 0), bottom = Math.min(r.bottom, H);
    if (right - left < 1 || bottom - top < 1) continue;
    const y = (top + bottom) / 2;
    for (const f of [0.5, 0.25, 0.75]) {
      const x = left + (right - left) * f;
      const hit = document.elementFromPoint(x, y);
      if (hit && (hit === el || el.contains(hit))) return [x, y];
    }
  }
  return 'covered';
}"""

# The click on an element no point reaches (what the text driver does: it follows the link, toggles the
# box, submits the form). A mouse press would focus the nearest focusable ancestor; so does this.
CLICK_JS = r"""(b) => {
  const el = document.querySelector('[data-bid="' + b + '"]');
  if (!el) return false;
  const target = el.closest('a[href], button, input:not([type=hidden]), select, textarea, summary, [tabindex]');
  if (target && !target.disabled) target.focus({preventScroll: true});
  else if (document.activeElement && document.activeElement !== document.body) document.activeElement.blur();
  el.click();
  return true;
}"""

# what Playwright's fill does: focus, set the value, fire input and change
FILL_JS = r"""([b, v]) => {
  const el = document.querySelector('[data-bid="' + b + '"]');
  if (!el) return false;
  el.focus();
  el.value = v;
  el.dispatchEvent(new Event('input', {bubbles: true}));
  el.dispatchEvent(new Event('change', {bubbles: true}));
  return true;
}"""


def _in_form(el: Any) -> bool:
    if el.get("form"):
        return True
    parent = el.getparent()
    while parent is not None and parent.tag != "form":
        parent = parent.getparent()
    return parent is not None


def _navigates(el: Any) -> bool:
    """Whether clicking this element of the page model follows a link or submits a form."""
    node = el
    while node is not None:
        tag, typ = node.tag, (node.get("type") or "").lower()
        if tag == "a" and node.get("href") is not None:
            href = node.get("href").strip()
            return not (href.startswith("#") or href.lower().startswith("javascript:"))
        if tag == "button":
            return typ in ("submit", "") and node.get("disabled") is None and _in_form(node)
        if tag == "input":
            return typ in ("submit", "image") and node.get("disabled") is None and _in_form(node)
        if tag in ("label", "select", "option", "textarea", "form", "body"):
            return False
        node = node.getparent()
    return False


# Chromium puts typed form values back when a page is reached by back/forward; the text driver renders the
# page anew from the server (what the agent's state is), so the browser is made to do the same.
NO_FORM_RESTORE_JS = r"""(() => {
  const nav = () => (performance.getEntriesByType('navigation')[0] || {}).type;
  const reset = () => {
    if (nav() !== 'back_forward') return;
    for (const el of document.querySelectorAll('input, textarea')) {
      if (el.type === 'checkbox' || el.type === 'radio') el.checked = el.defaultChecked;
      else if (el.type !== 'file') el.value = el.defaultValue;
    }
    for (const o of document.querySelectorAll('option')) o.selected = o.defaultSelected;
    for (const s of document.querySelectorAll('select')) {
      if (!s.multiple && !Array.from(s.options).some(o => o.defaultSelected)) s.selectedIndex = -1;
      if (!s.multiple && s.selectedIndex === -1) {
        const first = Array.from(s.options).find(o => !o.disabled);
        if (first) first.selected = true;
      }
    }
  };
  document.addEventListener('DOMContentLoaded', reset, {capture: true});
  window.addEventListener('load', reset, {capture: true});
})();"""

BOXES_JS = r"""(bids) => {
  const out = [];
  const W = window.innerWidth, H = window.innerHeight;
  for (const b of bids) {
    const el = document.querySelector('[data-bid="' + b + '"]');
    if (!el) continue;
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1 || r.right < 0 || r.bottom < 0 || r.left > W || r.top > H) continue;
    const st = getComputedStyle(el);
    if (st.visibility === 'hidden' || st.display === 'none') continue;
    out.push([b, r.left, r.top, r.width, r.height]);
  }
  return out;
}"""

_SAFE_BID = re.compile(r"^[A-Za-z0-9_-]+$")


class _NoNavigation(Exception):
    """A click expected to navigate started no navigation (see ``BrowserDriver._with_navigation``)."""


@dataclass
class _Snap:
    doc: Any
    tree: PageTree | None
    elements: dict[str, Any]


class BrowserDriver(WebDriver):
    """A web session in the shared headless Chromium (see the module docstring).

    No call raises for a browser fault: ``execute`` answers with a message, the observation calls
    (``tree``, ``tab_titles``, ``screenshot``) recover and read again; what happened is kept for
    :meth:`take_faults`. Only a browser that cannot be started again raises :class:`BrowserDied`
    (and the next call tries again).
    """

    mode = "browser"

    def __init__(self, app: WebApp, viewport: tuple[int, int] = (1280, 720), watchdog_s: float = WATCHDOG_S) -> None:
        self.app = app
        self.viewport = (int(viewport[0]), int(viewport[1]))
        self.watchdog_s = float(watchdog_s)
        self.server: LocalServer = get_server()
        self.origin = self.server.origin
        self.session = ""
        self.context: Any = None
        self.pages: list[Any] = []
        self._active = 0
        self._snaps: dict[int, _Snap] = {}
        self._cdp: dict[int, Any] = {}
        self._tabs: list[str] = []  # each tab's last path (what a recovery reopens)
        self._crashed: set[int] = set()
        self._faults: list[str] = []
        self._broken = ""  # why the last recovery failed (the next call tries again)

    # lifecycle ----------------------------------------------------------------------------------
    def _new_context(self) -> Any:
        browser = get_browser()
        ctx = browser.new_context(viewport={"width": self.viewport[0], "height": self.viewport[1]},
                                  java_script_enabled=True, service_workers="block", accept_downloads=False,
                                  base_url=self.origin)
        ctx.set_default_timeout(ACTION_TIMEOUT_MS)
        ctx.set_default_navigation_timeout(NAV_TIMEOUT_MS)
        ctx.add_init_script(NO_FORM_RESTORE_JS)
        ctx.add_cookies([{"name": SESSION_COOKIE, "value": self.session, "url": self.origin}])
        return ctx

    def _new_page(self) -> Any:
        page = self.context.new_page()
        page.on("crash", lambda p: self._crashed.add(id(p)))
        return page

    def reset(self, session: str, start_path: str = "/") -> None:
        """Start a browser session for ``session`` at ``start_path`` (under the watchdog)."""
        self.session = session
        self._faults.clear()
        path = start_path if start_path.startswith("/") else "/" + start_path
        try:
            with WATCHDOG.watch(self.watchdog_s):
                self._reset_once(path)
        except Exception as e:
            fault = self._fault_of(e, observing=True)
            if fault is None:
                raise
            self._drop(fault)  # and start again on a new browser
            try:
                with WATCHDOG.watch(RECOVERY_S):
                    self._reset_once(path)
            except Exception as e2:
                self._drop(str(e2))
                raise BrowserDied(f"the browser could not be started again ({_first_line(e2)})") from e2
        self._broken = ""
        self._remember_tabs()

    def _reset_once(self, path: str) -> None:
        if self.context is None or not self._browser_alive():
            self._drop("")
            self.context = self._new_context()
        ctx = self.context
        ctx.clear_cookies()
        ctx.add_cookies([{"name": SESSION_COOKIE, "value": self.session, "url": self.origin}])
        pages = [p for p in self.pages if not p.is_closed() and id(p) not in self._crashed]
        page = pages[0] if pages else self._new_page()  # reused: its history is wiped below
        for p in self.pages:
            if p is not page:
                self._cdp.pop(id(p), None)
                if not p.is_closed():
                    p.close()
        self.pages = [page]
        self._tab_ids = [self._new_tab_id()]
        self._active = 0
        self._snaps.clear()
        err = self._goto(page, path)
        if err:
            raise RuntimeError(err)
        self._forget_history(page)
        # The context is reused across episodes (a new one costs ~150 ms); a full GC frees what the
        # last episode's pages left in the renderer, as a new context would.
        self._collect_garbage()

    def _cdp_of(self, page: Any) -> Any:
        cdp = self._cdp.get(id(page))
        if cdp is None:
            cdp = self._cdp[id(page)] = self.context.new_cdp_session(page)
        return cdp

    def _collect_garbage(self) -> None:
        """A full GC in the renderer (~15 ms): the documents of earlier navigations, and the Blink
        memory they hold, are freed now rather than at V8's next full GC."""
        self._cdp_of(self.page).send("HeapProfiler.collectGarbage")

    def _forget_history(self, page: Any) -> None:
        """Leave only the current entry in the tab's history (a fresh tab, as in the text driver)."""
        self._cdp_of(page).send("Page.resetNavigationHistory")

    def close(self) -> None:
        """Close the browser context and forget its pages and cached snapshots."""
        ctx, self.context, self.pages = self.context, None, []
        self._snaps.clear()
        self._cdp.clear()
        if ctx is not None and self._browser_alive(ctx):
            try:
                with WATCHDOG.watch(self.watchdog_s):
                    ctx.close()
            except Exception:
                pass

    def _browser_alive(self, ctx: Any = None) -> bool:
        ctx = ctx if ctx is not None else self.context
        return (_browser is not None and _driver_alive() and _browser.is_connected()
                and (ctx is None or ctx.browser is _browser))

    # faults -------------------------------------------------------------------------------------
    def _fault_of(self, e: Exception, observing: bool = False) -> str | None:
        """What broke, if ``e`` means the browser (not the page's content) failed; ``None`` for an
        ordinary failed action. While the observation is read every error is a fault."""
        from playwright.sync_api import Error as PWError

        if isinstance(e, BrowserDied):
            return str(e)
        if WATCHDOG.fired != self._fired_seen:
            self._fired_seen = WATCHDOG.fired
            return f"the browser did not answer within {self.watchdog_s:g} s"
        if not _driver_alive():
            return "Playwright's driver process died"
        if _browser is None or not _browser.is_connected():
            return "the Chromium process died"
        if any(id(p) in self._crashed for p in self.pages) or "crash" in str(e).lower():
            return "the page's renderer process crashed"
        if type(e).__name__ == "TargetClosedError" or (self.pages and self.page.is_closed()):
            return "the page was closed under the driver"
        if observing or not isinstance(e, PWError):
            return f"the page could not be read ({type(e).__name__}: {_first_line(e)})"
        return None

    _fired_seen = 0

    def _drop(self, fault: str) -> None:
        """Forget the context and pages; kill the browser stack too when the fault lies there."""
        self._snaps.clear()
        self._cdp.clear()
        self._crashed.clear()
        ctx, self.context, self.pages = self.context, None, []
        if ctx is not None and self._browser_alive(ctx):
            try:
                with WATCHDOG.watch(5.0):
                    ctx.close()
                return
            except Exception:
                pass
        if _pw is not None and not (_driver_alive() and _browser is not None and _browser.is_connected()):
            kill_stack()
        elif ctx is not None and not self._browser_alive(ctx):
            pass  # another driver already started a new browser
        if fault and WATCHDOG.fired != self._fired_seen:
            self._fired_seen = WATCHDOG.fired

    def _recover(self, fault: str) -> None:
        """Start again after ``fault``: a new context (and browser when needed), each tab reopened at its
        last page, without side effects on the sites' state. Raises :class:`BrowserDied` if that fails."""
        paths, active = list(self._tabs) or ["/"], self._active
        self._faults.append(fault)
        log.info("browser fault (%s): recovering %d tab(s)", fault, len(paths))
        self._drop(fault)
        try:
            with WATCHDOG.watch(RECOVERY_S):
                self.context = self._new_context()
                self.context.set_extra_http_headers({RESTORE_HEADER: "1"})
                for path in paths:
                    page = self._new_page()
                    self.pages.append(page)
                    self._goto(page, path)
                    self._forget_history(page)
                self.context.set_extra_http_headers({})
                self._active = min(active, len(self.pages) - 1)
        except Exception as e:
            self._drop(str(e))
            kill_stack()
            self._broken = f"{fault}; starting it again failed: {_first_line(e)}"
            raise BrowserDied(f"the browser failed ({self._broken})") from e
        self._broken = ""

    def _guarded(self, fn: Callable[[], Any]) -> Any:
        """``fn()`` under the watchdog; after a fault, recover and call it once more."""
        if self._broken:
            self._recover(f"still recovering from: {self._broken}")
        try:
            with WATCHDOG.watch(self.watchdog_s):
                out = fn()
        except Exception as e:
            fault = self._fault_of(e, observing=True)
            if fault is None:
                raise
            self._recover(fault)
            with WATCHDOG.watch(self.watchdog_s):
                out = fn()
        self._remember_tabs()
        return out

    def _remember_tabs(self) -> None:
        self._tabs = [path_of(p.url) if p.url.startswith(self.origin) else "/" for p in self.pages]

    def take_faults(self) -> str:
        """What failed in the browser since the last call (and how it was recovered), as one message."""
        if not self._faults:
            return ""
        what = "; then ".join(dict.fromkeys(self._faults))
        self._faults.clear()
        return msg.browser_recovered(what, len(self.pages))

    # state ------------------------------------------------------------------------------------
    @property
    def page(self) -> Any:
        """The active Playwright page; raises ``BrowserDied`` when none is open."""
        if not self.pages:
            raise BrowserDied("the browser driver has no open page (call reset)")
        return self.pages[self._active]

    @property
    def active_tab(self) -> int:
        """Index of the active tab."""
        return self._active

    @property
    def url(self) -> str:
        """The canonical URL of the active page (the last known one while recovering)."""
        if not self.pages:  # between a failed recovery and the next one: the last page we had
            return canonical(self._tabs[self._active] if self._active < len(self._tabs) else "/")
        return self._canonical(self.page.url)

    def _canonical(self, real: str) -> str:
        if real.startswith(self.origin):
            return canonical(path_of(real))
        return real

    def _snap(self, page: Any) -> _Snap:
        snap = self._snaps.get(id(page))
        if snap is None:
            html = self._eval_settled(page, SNAPSHOT_JS)
            doc = parse_html(html)
            snap = _Snap(doc, None, elements_by_bid(doc))
            self._snaps[id(page)] = snap
        return snap

    def _eval_settled(self, page: Any, js: str, arg: Any = None) -> Any:
        from playwright.sync_api import Error as PWError

        for attempt in range(3):
            try:
                page.wait_for_load_state("load", timeout=NAV_TIMEOUT_MS)
                return page.evaluate(js, arg)
            except PWError as e:  # a navigation replaced the document under us: wait and read again
                if attempt == 2 or self._fault_of(e) is not None or page.is_closed():
                    raise
        raise AssertionError("unreachable")

    def tree(self) -> PageTree:
        """The accessibility tree of the active page (cached per snapshot)."""
        def read() -> PageTree:
            snap = self._snap(self.page)
            if snap.tree is None:
                snap.tree = build_tree(snap.doc)
            return snap.tree

        return self._guarded(read)

    def tab_titles(self) -> list[tuple[str, str]]:
        """``(title, canonical URL)`` of every open tab."""
        def read() -> list[tuple[str, str]]:
            out = []
            for p in self.pages:
                snap = self._snap(p)
                if snap.tree is None:
                    snap.tree = build_tree(snap.doc)
                out.append((snap.tree.title, self._canonical(p.url)))
            return out

        return self._guarded(read)

    def screenshot(self, size: tuple[int, int], marks: bool = True) -> np.ndarray:
        """A screenshot of the active page resized to ``size`` (element ids drawn on it when ``marks``)."""
        from PIL import Image, ImageDraw

        from embodiedweb.render.text_image import font

        def shoot() -> tuple[bytes, list[Any]]:
            page = self.page
            page.wait_for_load_state("load", timeout=NAV_TIMEOUT_MS)
            data = page.screenshot(type="jpeg", quality=90, timeout=ACTION_TIMEOUT_MS, animations="disabled",
                                   caret="hide")
            boxes = page.evaluate(BOXES_JS, [n.bid for n in self.tree().interactive]) if marks else []
            return data, boxes

        data, boxes = self._guarded(shoot)
        img = Image.open(BytesIO(data)).convert("RGB")
        if marks and boxes:
            draw = ImageDraw.Draw(img)
            f = font(11)
            for bid, x, y, w, h in boxes:
                draw.rectangle([x, y, x + w, y + h], outline=(230, 30, 30), width=2)
                label = str(bid)
                tw = draw.textlength(label, font=f)
                ly = max(0, y - 13)
                draw.rectangle([x, ly, x + tw + 4, ly + 13], fill=(230, 30, 30))
                draw.text((x + 2, ly), label, fill=(255, 255, 255), font=f)
        w, h = int(size[0]), int(size[1])
        if img.size != (w, h):
            img = img.resize((w, h))
        return np.asarray(img, dtype=np.uint8)

    # actions ----------------------------------------------------------------------------------
    def execute(self, name: str, args: dict[str, Any]) -> str:
        """Run web action ``name`` with ``args`` in the browser and return the feedback message (recovering from faults)."""
        from playwright.sync_api import Error as PWError

        handler = getattr(self, f"_do_{name}", None)
        if handler is None:
            return msg.NOT_A_WEB_ACTION.format(name=name)
        if self._broken:
            self._recover(f"still recovering from: {self._broken}")
        page = self.page
        try:
            with WATCHDOG.watch(self.watchdog_s):
                return handler(**args)
        except Exception as e:
            fault = self._fault_of(e)
            if fault is None:
                if isinstance(e, PWError):
                    return f"The action failed in the browser: {_first_line(e)}"
                raise
            self._recover(fault)  # the action may or may not have happened: the message says so
            return ""
        finally:
            self._snaps.pop(id(page), None)
            if self.pages:
                self._snaps.pop(id(self.page), None)
            self._remember_tabs()

    def _element(self, bid: Any) -> tuple[Any, str]:
        el = self._snap(self.page).elements.get(str(bid))
        if el is None:
            return None, msg.unknown_id(bid, self.tree(), self.url)
        return el, ""

    def _locator(self, bid: Any) -> Any:
        b = str(bid)
        if not _SAFE_BID.match(b):
            raise ValueError(f"bad id {b!r}")
        return self.page.locator(f'[{BID}="{b}"]')

    def _do_click(self, id: str) -> str:
        el, err = self._element(id)
        if err:
            return err
        if el.get("disabled") is not None:
            return msg.disabled(id)
        if el.tag == "option":
            select = el.getparent()
            while select is not None and select.tag != "select":
                select = select.getparent()
            if select is None or select.get(BID) is None:
                return ""
            idx = list(select.iter("option")).index(el)
            self._locator(select.get(BID)).select_option(index=idx, timeout=ACTION_TIMEOUT_MS)
            return ""
        point = self.page.evaluate(POINT_JS, str(id))
        if point is None:
            return f"Element [{id}] is not visible on the page, so it cannot be clicked."
        # A real mouse click at a point of the element (POINT_JS), or the element's own click() when no
        # point reaches it. Playwright's locators would inject their selector engine into every new document
        # (~40 ms a page); the page model says whether the click submits or follows a link, and then we wait
        # for that navigation to load.
        if point == "covered":
            act = partial(self.page.evaluate, CLICK_JS, str(id))
        else:
            act = partial(self.page.mouse.click, *point)
        why = self._with_navigation(_navigates(el), act)
        return f"Clicking [{id}] did not load a page: {why}." if why else ""

    def _with_navigation(self, expected: bool, act: Callable[[], Any], timeout_ms: int | None = None) -> str:
        """Run ``act``; when it is ``expected`` to navigate, wait until the new page has loaded.

        Returns "" when done (or not expected), else why no page loaded: no navigation of the main frame
        began (no request for a document, no same-document navigation) within ``NAV_START_TIMEOUT_MS``
        of ``act`` -- the page did nothing (a script cancelled the click, say), and the step answers in
        ~2 s rather than ``timeout_ms`` --, or one began but failed (an empty 204 answer), or its page had
        not loaded ``timeout_ms`` (default ``NAV_TIMEOUT_MS``) after ``act``.
        """
        from playwright.sync_api import Error as PWError
        from playwright.sync_api import TimeoutError as PWTimeout

        if not expected:
            act()
            return ""
        page = self.page
        timeout_ms = NAV_TIMEOUT_MS if timeout_ms is None else timeout_ms
        start_ms = min(NAV_START_TIMEOUT_MS, timeout_ms)
        started: list[Any] = []

        def on_request(req: Any) -> None:
            if req.is_navigation_request() and req.frame == page.main_frame:
                started.append(req)

        def on_navigated(frame: Any) -> None:
            if frame == page.main_frame:
                started.append(frame)

        page.on("request", on_request)
        page.on("framenavigated", on_navigated)
        try:
            with page.expect_navigation(wait_until="load", timeout=timeout_ms):
                act()
                deadline = time.monotonic() + start_ms / 1000
                while not started and time.monotonic() < deadline:
                    page.wait_for_timeout(20)  # lets Playwright deliver the page's events
                if not started:
                    raise _NoNavigation
        except _NoNavigation:
            return f"nothing started loading within {start_ms / 1000:g} s"
        except PWTimeout:
            return f"the page did not finish loading within {timeout_ms / 1000:g} s"
        except PWError as e:  # the navigation failed (net::ERR_ABORTED: a 204 answer, say), or worse
            code = re.search(r"net::ERR_[A-Z_]+", str(e))
            if code is None or self._fault_of(e) is not None:
                raise
            return f"the navigation failed ({code.group(0)})"
        finally:
            page.remove_listener("request", on_request)
            page.remove_listener("framenavigated", on_navigated)
        return ""

    def _do_type(self, id: str, text: str, enter: bool = False) -> str:
        el, err = self._element(id)
        if err:
            return err
        plan, err = msg.plan_type(el, id, text, self.tree())
        if plan is None:
            return err
        if plan.kind == "select":
            loc = self._locator(id)
            loc.select_option(index=list(el.iter("option")).index(plan.option), timeout=ACTION_TIMEOUT_MS)
            loc.focus(timeout=ACTION_TIMEOUT_MS)
        elif not self.page.evaluate(FILL_JS, [str(id), plan.value]):
            return f"Element [{id}] is not on the page any more."
        if enter:
            submits = el.tag == "input" and _in_form(el)
            self._with_navigation(submits, lambda: self.page.keyboard.press("Enter"), timeout_ms=3000)
        return ""

    def _do_hover(self, id: str) -> str:
        _, err = self._element(id)
        if err:
            return err
        loc = self._locator(id)
        if loc.is_visible():
            loc.hover(timeout=ACTION_TIMEOUT_MS)
        return ""

    def _do_press(self, key_comb: str) -> str:
        try:
            key = validate_key_comb(key_comb)
        except ValueError as e:
            return str(e)
        if key == "Alt+ArrowLeft":
            return self._do_go_back()
        if key == "Alt+ArrowRight":
            return self._do_go_forward()
        key = key.replace("Space", " ") if key.split("+")[-1] == "Space" else key
        handle = self.page.evaluate_handle("document.activeElement || document.body")
        el = handle.as_element()
        if el is None:
            self.page.keyboard.press(key)
        else:
            el.press(key, timeout=ACTION_TIMEOUT_MS)
        return ""

    def _do_scroll(self, direction: str) -> str:
        dy = self.viewport[1] * 0.8 * (1 if direction == "down" else -1)
        self.page.evaluate("dy => window.scrollBy({top: dy, left: 0, behavior: 'instant'})", dy)
        return ""

    def _do_new_tab(self) -> str:
        if len(self.pages) >= msg.MAX_TABS:
            return msg.TOO_MANY_TABS
        page = self._new_page()
        self.pages.append(page)
        self._tab_ids.append(self._new_tab_id())
        self._active = len(self.pages) - 1
        err = self._goto(page, "/")
        self._forget_history(page)
        return err

    def _do_close_tab(self) -> str:
        if len(self.pages) == 1:
            return msg.CLOSE_LAST_TAB
        page = self.pages.pop(self._active)
        self._tab_ids.pop(self._active)
        self._snaps.pop(id(page), None)
        self._cdp.pop(id(page), None)
        page.close()
        self._active = min(self._active, len(self.pages) - 1)
        return ""

    def _do_tab_focus(self, index: int) -> str:
        if not 0 <= index < len(self.pages):
            return msg.no_tab(index, len(self.pages))
        self._active = index
        return ""

    def _do_goto(self, url: str) -> str:
        try:
            path = to_local_path(url, path_of(self.page.url))
        except UrlRefused as e:
            return str(e)
        return self._goto(self.page, path)

    def _do_go_back(self) -> str:
        if self.page.go_back(wait_until="load", timeout=NAV_TIMEOUT_MS) is None:
            return msg.NO_BACK
        return ""

    def _do_go_forward(self) -> str:
        if self.page.go_forward(wait_until="load", timeout=NAV_TIMEOUT_MS) is None:
            return msg.NO_FORWARD
        return ""

    def _goto(self, page: Any, path: str) -> str:
        from playwright.sync_api import Error as PWError

        self._snaps.pop(id(page), None)
        if not path.startswith("/"):  # the origin's own path: never a user name before another host
            path = "/" + path
        try:
            page.goto(self.origin + path, wait_until="load", timeout=NAV_TIMEOUT_MS)
        except PWError as e:
            if self._fault_of(e) is not None:
                raise
            return f"The page {canonical(path)} could not be loaded: {_first_line(e)}"
        return ""
