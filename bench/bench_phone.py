"""Benchmark: the static book on a phone at the venue (issue 24). Run by hand.

    .venv/bin/python bench/bench_phone.py [--runs 3] [--site DIR] [--query "phase de combat"]

Builds the book (or takes `--site`), serves it with `python -m http.server` on 127.0.0.1 (a
plain static host: no compression, no cache headers) and opens it in Debian's Chromium
(/usr/bin/chromium, via Playwright) as a phone: 390×844 touch screen, CPU slowed 4× and the
network throttled through the DevTools protocol (400 kbit/s both ways, 400 ms latency). Each
run starts from an empty browser profile (a first visit) and measures:

- first result: `search.html?q=<query>` opened, until the first result is drawn (ms from the
  navigation's start; search.js draws the first result once its card is in (the next four
  cards fetched meanwhile), then the rest of the first screen, then the others), and the bytes fetched before it (encoded, as the network carried them);
- rule number: from a rule page (2004/302.html, already open), `--number` typed in the
  header's box (a key every 150 ms) and Enter: from Enter until the rule's page has loaded;
- second query: another query typed in the search page's box (a key every 150 ms; pasted at
  once with `--paste`), from Enter until its first result;
- offline: once the service worker controls the page (the first-language pages and the
  index stored), the network cut: an unopened page and a new query, each must work (ok/échec,
  and the time they took).

Goals (issue 24): first result ≤ 6 s (moonshot 4 s) with ≤ 200 kB fetched (moonshot 120 kB);
a rule number ≤ 3 s; a second query ≤ 1 s. Prints one line per run, then the medians. The
DevTools throttling applies to the page; the service worker's own downloads (after the page's
load event) are not throttled by it. Exit status 1 when an offline check fails.
"""

from __future__ import annotations

import argparse
import contextlib
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2, "locale": "fr-FR"}
KBIT = 1000 / 8
NETWORK = {"offline": False, "latency": 400, "downloadThroughput": 400 * KBIT, "uploadThroughput": 400 * KBIT}
CPU_SLOWDOWN = 4
KEY_DELAY_MS = 150
FIRST_RESULT = "() => document.querySelector('#results li, #rule-choice a') !== null"


@dataclass(frozen=True, slots=True)
class Run:
    first_ms: float
    first_bytes: int
    number_ms: float
    second_ms: float
    offline_page: str
    offline_query: str


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def http_server(folder: Path) -> Iterator[str]:
    """`python -m http.server` on a free loopback port, serving `folder`."""
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"],
                              cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.2):
                break
            time.sleep(0.05)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.terminate()
        server.wait(5)


class Throttled:
    """A fresh phone context with the DevTools throttling, counting the bytes its page fetched."""

    def __init__(self, browser: Any) -> None:
        self.context = browser.new_context(**PHONE)
        self.page = self.context.new_page()
        self.cdp = self.context.new_cdp_session(self.page)
        self.cdp.send("Network.enable")
        self.cdp.send("Network.emulateNetworkConditions", NETWORK)
        self.cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
        self.bytes = 0
        self.cdp.on("Network.loadingFinished", self._finished)

    def _finished(self, event: dict[str, Any]) -> None:
        self.bytes += int(event.get("encodedDataLength", 0))

    def close(self) -> None:
        self.context.close()


def first_result(browser: Any, base: str, query: str) -> tuple[float, int, Throttled]:
    phone = Throttled(browser)
    page = phone.page
    page.goto(f"{base}/search.html?q={query}", wait_until="commit", timeout=300_000)
    page.wait_for_function(FIRST_RESULT, timeout=300_000, polling=50)
    elapsed = page.evaluate("performance.now()")
    return elapsed, phone.bytes, phone


def typed_number(browser: Any, base: str, number: str) -> float:
    phone = Throttled(browser)
    try:
        page = phone.page
        page.goto(f"{base}/2004/302.html", timeout=300_000)
        page.click("#q")
        page.type("#q", number, delay=KEY_DELAY_MS)  # typed with a thumb, not pasted
        start = time.perf_counter()
        page.press("#q", "Enter")
        page.wait_for_url(lambda url: "search.html" not in url and "#R" in url, timeout=300_000)
        page.wait_for_load_state("load", timeout=300_000)
        return (time.perf_counter() - start) * 1000
    finally:
        phone.close()


def second_query(phone: Throttled, query: str, *, paste: bool = False) -> float:
    page = phone.page
    page.wait_for_load_state("load", timeout=300_000)
    if paste:
        page.fill("#q", query)
    else:  # typed with a thumb, as the rule number
        page.fill("#q", "")
        page.type("#q", query, delay=KEY_DELAY_MS)
    start = time.perf_counter()
    page.press("#q", "Enter")
    page.wait_for_url(lambda url: "q=" in url and query.split()[0] in url.replace("%20", " ").replace("+", " "),
                      timeout=300_000)
    page.wait_for_function(FIRST_RESULT, timeout=300_000, polling=50)
    return (time.perf_counter() - start) * 1000


def offline_checks(phone: Throttled, base: str, page_path: str, query: str) -> tuple[str, str]:
    page = phone.page
    try:
        page.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller !== null",
                               timeout=600_000)
    except Exception:
        state = page.evaluate("navigator.serviceWorker.getRegistration().then(r => r ? "
                              "[r.installing, r.waiting, r.active].map(w => w ? w.state : '-').join('/') : 'aucun')")
        return f"échec (service worker : {state})", "échec"
    phone.context.set_offline(True)
    results = []
    for url, ready in ((f"{base}/{page_path}", "document.querySelector('article.rule') !== null"),
                       (f"{base}/search.html?q={query}", FIRST_RESULT)):
        start = time.perf_counter()
        try:
            page.goto(url, wait_until="commit", timeout=60_000)
            page.wait_for_function(ready if ready.startswith("()") else f"() => {ready}", timeout=60_000, polling=50)
            results.append(f"ok ({(time.perf_counter() - start) * 1000:.0f} ms)")
        except Exception as error:  # a failed check is reported, not raised
            results.append(f"échec ({type(error).__name__})")
    phone.context.set_offline(False)
    return results[0], results[1]


def one_run(browser: Any, base: str, args: argparse.Namespace) -> Run:
    first_ms, first_bytes, phone = first_result(browser, base, args.query)
    try:
        second = second_query(phone, args.second, paste=args.paste)
        offline_page, offline_query = offline_checks(phone, base, args.offline_page, args.offline_query)
    finally:
        phone.close()
    number = typed_number(browser, base, args.number)
    return Run(first_ms=first_ms, first_bytes=first_bytes, number_ms=number, second_ms=second,
               offline_page=offline_page, offline_query=offline_query)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--site", type=Path, help="a built book (default: built now into a temporary folder)")
    parser.add_argument("--query", default="phase de combat")
    parser.add_argument("--second", default="blessures de combat")
    parser.add_argument("--number", default="300.3")
    parser.add_argument("--offline-page", default="2004/308.html")
    parser.add_argument("--offline-query", default="mana")
    parser.add_argument("--paste", action="store_true", help="the second query pasted (at once), not typed")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    with contextlib.ExitStack() as stack:
        site = args.site
        if site is None:
            from judge.corpus.loader import load_graph
            from judge.site.build import build_site

            site = Path(stack.enter_context(tempfile.TemporaryDirectory())) / "site"
            build_site(load_graph(), site)
        base = stack.enter_context(http_server(site))
        playwright = stack.enter_context(sync_playwright())
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        stack.callback(browser.close)
        chunks = list((site / "search").glob("*.js"))
        print(f"Livre : {site} ; index de recherche : {sum(c.stat().st_size for c in chunks) / 1e6:.2f} Mo "
              f"en {len(chunks)} parties ; "
              f"réseau 400 kbit/s, 400 ms ; CPU ÷{CPU_SLOWDOWN} ; 390 px tactile")
        print(f"{'essai':>5} {'1er résultat':>13} {'octets avant':>13} {'numéro':>9} {'2e requête':>11}  hors ligne (page ; requête)")
        runs: list[Run] = []
        for n in range(1, args.runs + 1):
            run = one_run(browser, base, args)
            runs.append(run)
            print(f"{n:>5} {run.first_ms / 1000:>11.1f} s {run.first_bytes / 1000:>10.0f} kB "
                  f"{run.number_ms / 1000:>7.2f} s {run.second_ms / 1000:>9.2f} s  {run.offline_page} ; {run.offline_query}",
                  flush=True)
        print(f"{'médiane':>5} {statistics.median(r.first_ms for r in runs) / 1000:>11.1f} s "
              f"{statistics.median(r.first_bytes for r in runs) / 1000:>10.0f} kB "
              f"{statistics.median(r.number_ms for r in runs) / 1000:>7.2f} s "
              f"{statistics.median(r.second_ms for r in runs) / 1000:>9.2f} s")
        print("Objectifs : 1er résultat ≤ 6 s (4 s), ≤ 200 kB (120 kB) ; numéro ≤ 3 s ; 2e requête ≤ 1 s.")
    failed = [r for r in runs if not (r.offline_page.startswith("ok") and r.offline_query.startswith("ok"))]
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
