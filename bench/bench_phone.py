"""Benchmark: the static book on a phone at the venue (issues 24 and 34). Run by hand.

    .venv/bin/python bench/bench_phone.py [--runs 3] [--site DIR] [--idle 180] [--no-gzip] [--immutable]

Builds the book (or takes `--site`) and serves it on 127.0.0.1 (Python's static server, in
HTTP/1.1 with keep-alive; gzip for text when the browser asks, as any web host does, unless
`--no-gzip`; a conditional request answered « 304 Not Modified »; no Cache-Control, as Python's or
nginx's defaults: the browser's heuristic keeps a file fresh for a tenth of its age, so a book just
built is asked again at each page until its worker serves it; `--immutable`: the fingerprinted files
sent with `Cache-Control: immutable`, as templates/organisers.html advises and `judge serve` does), behind a **throttling relay** (an asyncio TCP relay in this file): every byte
the browser exchanges with the book, the service worker's included, shares 400 kbit/s each
way, and each chunk waits 200 ms each way (400 ms round trip). Debian's Chromium (via
Playwright) opens it as a phone: 390×844 touch screen, CPU slowed 4× (DevTools). Each run is a
first visit (an empty profile) and measures:

- first result: `search.html?q=<query>` opened, until the first result is drawn (ms from the
  navigation's start), and the bytes the page fetched before it (encoded);
- result to rule: the first result tapped, until its rule is on screen; rule to rule: then the
  rule page's « next » link tapped, until the next rule's page has loaded (the page prefetches
  it); cross-reference: then the page's first cross-reference to another page tapped (not
  prefetched: one round trip at least), until that page has loaded;
- rule number: from a rule page (2004/302.html), `--number` typed in the header's box (a key
  every 150 ms) and Enter: from Enter until the rule's page has loaded;
- offline ready: from the first page's navigation start until the worker says the first-
  language pages and the search are stored (<html data-offline="ready">);
- whole book: then idle (no page request) up to `--idle` seconds for the whole book
  (data-offline="complete"); if it is not done by then, the time is extrapolated from the
  files stored during the idle time (marked « ~ »);
- offline: then the network cut: an unopened French page, an unopened English page (opened,
  or « Page pas encore enregistrée »), and a new query.

Goals (issue 34): offline ready ≤ 60 s, whole book ≤ 15 min, first result ≤ 6 s and ≤ 200 kB,
rule to rule (next or cross-reference) ≤ 2 s, rule number ≤ 3 s. Prints one line per run, then the medians. Exit
status 1 when an offline check fails.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import email.utils
import functools
import gzip
import http.server
import io
import json
import re
import statistics
import sys
import tempfile
import threading
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
RATE = 400_000 / 8  # bytes per second, each way, shared by every connection
ONE_WAY = 0.2  # seconds
CPU_SLOWDOWN = 4
KEY_DELAY_MS = 150
FIRST_RESULT = "() => document.querySelector('#results li, #rule-choice a') !== null"
READY = "() => ['ready', 'complete'].includes(document.documentElement.getAttribute('data-offline'))"
COMPLETE = "() => document.documentElement.getAttribute('data-offline') === 'complete'"
TEXT = (".html", ".js", ".css", ".svg", ".webmanifest", ".json")
FINGERPRINTED = re.compile(r"\.[0-9a-f]{10}\.(?:js|css|svg|json)$")  # as the worker's CONTENT_NAMED
IMMUTABLE = "public, max-age=31536000, immutable"


# ---------------------------------------------------------------------- the book's host
class _Host(http.server.SimpleHTTPRequestHandler):
    """A static host: HTTP/1.1 keep-alive, text gzipped when asked (`gzip` on the server)."""

    protocol_version = "HTTP/1.1"
    use_gzip = True
    immutable = False
    cache_control: str | None = None

    def end_headers(self) -> None:
        if self.cache_control:
            self.send_header("Cache-Control", self.cache_control)
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def send_head(self) -> Any:  # type: ignore[override]
        path = Path(self.translate_path(self.path))
        self.cache_control = IMMUTABLE if self.immutable and FINGERPRINTED.search(path.name) else None
        if (self.use_gzip and path.is_file() and path.name.endswith(TEXT)
                and "gzip" in self.headers.get("Accept-Encoding", "")):
            since = self.headers.get("If-Modified-Since")
            with contextlib.suppress(TypeError, ValueError, IndexError, OverflowError):
                if since and int(path.stat().st_mtime) <= email.utils.parsedate_to_datetime(since).timestamp():
                    self.send_response(304)  # as any host: a copy the browser holds is not sent again
                    self.end_headers()
                    return None
            body = gzip.compress(path.read_bytes(), 6)
            self.send_response(200)
            self.send_header("Content-Type", self.guess_type(str(path)))
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Last-Modified", self.date_time_string(int(path.stat().st_mtime)))
            self.end_headers()
            return io.BytesIO(body)
        return super().send_head()


class _Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a tab closed mid-download (a phone's context at the end of a run): not news


@contextlib.contextmanager
def host(folder: Path, use_gzip: bool, immutable: bool = False) -> Iterator[int]:
    handler = functools.partial(type("Host", (_Host,), {"use_gzip": use_gzip, "immutable": immutable}),
                                directory=str(folder))
    server = _Server(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield int(server.server_address[1])
    finally:
        server.shutdown()
        server.server_close()


# ---------------------------------------------------------------------- the throttling relay
class Link:
    """One direction of the slow link: a shared byte budget (`RATE`) and a delay (`ONE_WAY`)."""

    def __init__(self) -> None:
        self.free_at = 0.0  # when the link is free to send the next byte
        self.bytes = 0

    async def carry(self, size: int) -> None:
        loop = asyncio.get_running_loop()
        now = loop.time()
        start = max(now, self.free_at)
        self.free_at = start + size / RATE
        self.bytes += size
        await asyncio.sleep(self.free_at - now)


class Relay:
    """A TCP relay on a free port to `backend`, every chunk through the slow link (its own
    asyncio loop, in a thread)."""

    def __init__(self, backend: int) -> None:
        self.backend = backend
        self.down, self.up = Link(), Link()
        self.loop = asyncio.new_event_loop()
        self.port = 0
        ready = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(ready,), daemon=True)
        self.thread.start()
        ready.wait(10)

    def _run(self, ready: threading.Event) -> None:
        asyncio.set_event_loop(self.loop)

        async def start() -> asyncio.AbstractServer:
            server = await asyncio.start_server(self._client, "127.0.0.1", 0)
            self.port = server.sockets[0].getsockname()[1]
            return server

        self.server = self.loop.run_until_complete(start())
        ready.set()
        self.loop.run_forever()

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, link: Link) -> None:
        # Each chunk leaves after the link's delay and its turn on the shared budget, in order.
        queue: asyncio.Queue[bytes | None] = asyncio.Queue()

        async def deliver() -> None:
            while (data := await queue.get()) is not None:
                await link.carry(len(data))
                writer.write(data)
                await writer.drain()
            writer.close()

        async def delayed(data: bytes) -> None:
            await asyncio.sleep(ONE_WAY)
            await queue.put(data)

        sender = asyncio.create_task(deliver())
        pending = []
        try:
            while data := await reader.read(16_384):
                pending.append(asyncio.create_task(delayed(data)))
                await asyncio.sleep(0)
        except ConnectionError:
            pass
        for task in pending:
            await task
        await queue.put(None)
        with contextlib.suppress(ConnectionError):
            await sender

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            back_reader, back_writer = await asyncio.open_connection("127.0.0.1", self.backend)
        except OSError:
            writer.close()
            return
        await asyncio.gather(self._pipe(reader, back_writer, self.up), self._pipe(back_reader, writer, self.down),
                             return_exceptions=True)

    def close(self) -> None:
        # The connections still open (a closed tab's, the worker's) ended here, not left pending.
        async def stop() -> None:
            self.server.close()
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(stop(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


# ---------------------------------------------------------------------- one first visit
@dataclass(frozen=True, slots=True)
class Run:
    first_ms: float
    first_bytes: int
    to_rule_ms: float
    rule_to_rule_ms: float
    reference_ms: float
    number_ms: float
    ready_s: float
    whole_s: float
    whole_measured: bool
    offline: str


class Phone:
    """A fresh phone context (CPU slowed), counting the bytes its page fetched."""

    def __init__(self, browser: Any) -> None:
        self.context = browser.new_context(**PHONE)
        self.page = self.context.new_page()
        self.cdp = self.context.new_cdp_session(self.page)
        self.cdp.send("Network.enable")
        self.cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
        self.bytes = 0
        self.cdp.on("Network.loadingFinished", self._finished)

    def _finished(self, event: dict[str, Any]) -> None:
        self.bytes += int(event.get("encodedDataLength", 0))

    def close(self) -> None:
        self.context.close()


def stored_files(page: Any) -> int:
    return int(page.evaluate("caches.keys().then(k => k.length ? caches.open(k[0]).then(c => c.keys()).then(r => r.length) : 0)"))


def one_run(browser: Any, base: str, total_files: int, args: argparse.Namespace) -> Run:
    phone = Phone(browser)
    page = phone.page
    try:
        page.goto(f"{base}/search.html?q={args.query}", wait_until="commit", timeout=300_000)
        started = time.perf_counter() - page.evaluate("performance.now()") / 1000
        page.wait_for_function(FIRST_RESULT, timeout=300_000, polling=50)
        first_ms = page.evaluate("performance.now()")
        first_bytes = phone.bytes
        # The first result tapped, then the rule page's « next ».
        link = page.locator("#results li a").first
        target = link.get_attribute("href") or ""
        anchor = target.split("#", 1)[1] if "#" in target else ""
        start = time.perf_counter()
        link.click()
        page.wait_for_function(f"() => document.getElementById({json.dumps(anchor)}) !== null", timeout=300_000)
        to_rule = (time.perf_counter() - start) * 1000
        following = page.locator("a[rel=next]").last
        start = time.perf_counter()
        following.click()
        page.wait_for_load_state("load", timeout=300_000)
        rule_to_rule = (time.perf_counter() - start) * 1000
        reference = cross_reference(page)
        page.wait_for_function(READY, timeout=900_000, polling=200)
        ready_s = time.perf_counter() - started
        # Idle: the rest of the book.
        before, idle_start = stored_files(page), time.perf_counter()
        whole_measured = True
        try:
            page.wait_for_function(COMPLETE, timeout=args.idle * 1000, polling=1000)
            whole_s = time.perf_counter() - started
        except Exception:
            whole_measured = False
            after, idle = stored_files(page), time.perf_counter() - idle_start
            rate = max(after - before, 1) / idle
            whole_s = time.perf_counter() - started + (total_files - after) / rate
        offline = offline_checks(phone, base, args)
    finally:
        phone.close()
    number = typed_number(browser, base, args.number)
    return Run(first_ms=first_ms, first_bytes=first_bytes, to_rule_ms=to_rule, rule_to_rule_ms=rule_to_rule,
               reference_ms=reference, number_ms=number, ready_s=ready_s, whole_s=whole_s, whole_measured=whole_measured, offline=offline)


# The first cross-reference (a.ref) to another page than this one: its index (-1: none).
OTHER_PAGE_REF = """() => [...document.querySelectorAll('a.ref')].findIndex(
    a => new URL(a.href).pathname !== location.pathname)"""


def cross_reference(page: Any) -> float:
    """The page's first cross-reference to another page tapped: ms until that page has loaded
    (NaN: the page has none)."""
    index = int(page.evaluate(OTHER_PAGE_REF))
    if index < 0:
        return float("nan")
    link = page.locator("a.ref").nth(index)
    link.scroll_into_view_if_needed()
    start = time.perf_counter()
    link.click()
    page.wait_for_load_state("load", timeout=300_000)
    return (time.perf_counter() - start) * 1000


def offline_checks(phone: Phone, base: str, args: argparse.Namespace) -> str:
    page = phone.page
    phone.context.set_offline(True)
    out = []
    for label, url, ready in (("FR", f"{base}/{args.offline_page}", "() => document.querySelector('article.rule') !== null"),
                              ("EN", f"{base}/{args.offline_english}", "() => document.querySelector('h1') !== null"),
                              ("requête", f"{base}/search.html?q={args.offline_query}", FIRST_RESULT)):
        start = time.perf_counter()
        try:
            page.goto(url, wait_until="commit", timeout=60_000)
            page.wait_for_function(ready, timeout=60_000, polling=50)
            told = label == "EN" and page.locator("h1").inner_text() == "Page pas encore enregistrée"
            out.append(f"{label} {'dit' if told else 'ok'} {(time.perf_counter() - start) * 1000:.0f} ms")
        except Exception as error:  # a failed check is reported, not raised
            out.append(f"{label} échec ({type(error).__name__})")
    phone.context.set_offline(False)
    return ", ".join(out)


def typed_number(browser: Any, base: str, number: str) -> float:
    phone = Phone(browser)
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--site", type=Path, help="a built book (default: built now into a temporary folder)")
    parser.add_argument("--query", default="vigilance")
    parser.add_argument("--number", default="302.6")
    parser.add_argument("--offline-page", default="2004/308.html")
    parser.add_argument("--offline-english", default="2010/en/509.html")
    parser.add_argument("--offline-query", default="mana")
    parser.add_argument("--idle", type=int, default=180, help="seconds of idle waited for the whole book")
    parser.add_argument("--no-gzip", action="store_true", help="the host sends files uncompressed")
    parser.add_argument("--immutable", action="store_true", help="fingerprinted files sent as immutable")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    with contextlib.ExitStack() as stack:
        site = args.site
        if site is None:
            from judge.corpus.loader import load_graph
            from judge.site.build import build_site

            site = Path(stack.enter_context(tempfile.TemporaryDirectory())) / "site"
            build_site(load_graph(), site)
        lists = next(site.glob("offline-files.*.js")).read_text(encoding="utf-8")
        files = json.loads(lists.split("=", 1)[1].rstrip().rstrip(";"))
        packed = files.pop("bundles", {})  # a bundle stands for the files it holds, stored one by one
        total_files = sum(len(packed.get(p, [p])) for paths in files.values() for p in paths)
        backend = stack.enter_context(host(site, not args.no_gzip, args.immutable))
        relay = Relay(backend)
        stack.callback(relay.close)
        base = f"http://127.0.0.1:{relay.port}"
        playwright = stack.enter_context(sync_playwright())
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        stack.callback(browser.close)
        print(f"Livre : {site} ; {total_files} fichiers à enregistrer ; relais 400 kbit/s, 400 ms (tout le "
              f"navigateur) ; {'gzip' if not args.no_gzip else 'sans compression'}{' ; empreintes immuables' if args.immutable else ''} ; CPU ÷{CPU_SLOWDOWN} ; 390 px")
        print(f"{'essai':>5} {'1er résultat':>12} {'octets':>7} {'→ règle':>8} {'règle→règle':>11} {'renvoi':>7} {'numéro':>7} "
              f"{'prêt':>6} {'livre entier':>12}  hors ligne")
        runs: list[Run] = []
        for n in range(1, args.runs + 1):
            run = one_run(browser, base, total_files, args)
            runs.append(run)
            whole = f"{'' if run.whole_measured else '~'}{run.whole_s / 60:.1f} min"
            print(f"{n:>5} {run.first_ms / 1000:>10.1f} s {run.first_bytes / 1000:>5.0f} kB {run.to_rule_ms / 1000:>6.2f} s "
                  f"{run.rule_to_rule_ms / 1000:>9.2f} s {run.reference_ms / 1000:>5.2f} s {run.number_ms / 1000:>5.2f} s {run.ready_s:>4.0f} s {whole:>12}  "
                  f"{run.offline}", flush=True)
        print(f"{'méd.':>5} {statistics.median(r.first_ms for r in runs) / 1000:>10.1f} s "
              f"{statistics.median(r.first_bytes for r in runs) / 1000:>5.0f} kB "
              f"{statistics.median(r.to_rule_ms for r in runs) / 1000:>6.2f} s "
              f"{statistics.median(r.rule_to_rule_ms for r in runs) / 1000:>9.2f} s "
              f"{statistics.median(r.reference_ms for r in runs) / 1000:>5.2f} s "
              f"{statistics.median(r.number_ms for r in runs) / 1000:>5.2f} s "
              f"{statistics.median(r.ready_s for r in runs):>4.0f} s "
              f"{statistics.median(r.whole_s for r in runs) / 60:>8.1f} min")
        print(f"Relais : {relay.down.bytes / 1e6:.1f} Mo descendus, {relay.up.bytes / 1e6:.2f} Mo montés.")
        print("Objectifs : prêt hors ligne ≤ 60 s, livre entier ≤ 15 min, 1er résultat ≤ 6 s et ≤ 200 kB, "
              "règle → règle (suivante ou renvoi) ≤ 2 s, numéro ≤ 3 s.")
    failed = [r for r in runs if "échec" in r.offline]
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
