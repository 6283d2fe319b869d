"""The installable, offline book and the search page's first answers, in Debian's Chromium over
a plain static server (Python's http.server, as `python -m http.server` serves it): after one
visit, offline, an unopened page and a new query work; a new build replaces the old one's cache;
a typed rule number opens its rule without the search index; the query shows at once while the
index loads; nothing of this from file:// (no service worker there)."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import BROWSER_MARKS, PHONE, WORKER_WAIT_MS, new_tab, static_server

pytestmark = BROWSER_MARKS

# The worker's signals (templates/book.js): the first-language pages and the search stored;
# the whole book stored.
READY = "['ready', 'complete'].includes(document.documentElement.getAttribute('data-offline'))"
STORED = "document.documentElement.getAttribute('data-offline') === 'complete'"


@pytest.fixture
def plain(browser: Any) -> Iterator[Any]:
    """A phone without service workers: its requests all reach `page.route`."""
    with new_tab(browser, **PHONE, service_workers="block") as tab:
        yield tab


def _wait_stored(page: Any) -> None:
    page.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller !== null", timeout=WORKER_WAIT_MS)
    page.wait_for_function(STORED, timeout=WORKER_WAIT_MS)


@pytest.mark.parametrize("where", ["root", "base-url"])
def test_after_one_visit_an_unopened_page_and_a_new_query_work_offline(
    where: str, site: Path, site_under_base_url: Path, phone: Any,
) -> None:
    folder, prefix = (site, "/") if where == "root" else (site_under_base_url, "/regles/")
    with static_server(folder) as url:
        base = url + prefix
        phone.goto(base + "index.html")
        assert phone.evaluate("document.querySelector('link[rel=manifest]').href") == base + "manifest.webmanifest"
        _wait_stored(phone)
        manifest = json.loads(phone.request.get(base + "manifest.webmanifest").text())
        assert manifest["short_name"] and manifest["lang"] == "fr" and manifest["theme_color"]
        assert {i["sizes"] for i in manifest["icons"]} >= {"192x192", "512x512"}
        phone.context.set_offline(True)
        # A page never opened, in each language, and a rule's own URL (not stored: the worker opens its section).
        phone.goto(base + "2004/308.html")
        assert "308" in phone.locator("h1").inner_text()
        phone.goto(base + "2010/en/702.html")  # a long section: its index, each rule on its page
        assert phone.locator("ol[data-parts] a").count() > 50
        phone.goto(base + "2010/en/702.html#R70219a")  # an old link to a rule of it
        phone.wait_for_url("**/2010/en/702.19.html#R70219a")
        assert phone.locator("#R70219a").is_visible()
        phone.goto(base + "2004/306.2a.html")
        phone.wait_for_url("**/2004/306.html#R3062a")
        # A query never asked.
        phone.goto(base + "search.html?q=" + "blessures de combat")
        phone.locator("#results li").first.wait_for()
        assert "résultat" in phone.locator("#search-status").inner_text()
        # A typed rule number.
        phone.goto(base + "search.html?q=r.%20309.2a")
        phone.wait_for_url("**/2004/309.html#R3092a")
        phone.context.set_offline(False)
    assert phone.errors == []


def test_once_ready_the_network_cut_an_unopened_page_of_each_language_and_a_new_query(site: Path, phone: Any) -> None:
    """A first visit (the search page, as a judge's first question), then the network cut as
    soon as the worker says it is ready (the French pages and the search stored, the rest
    perhaps not): an unopened French page opens, an unopened English page opens or says it is
    not stored yet, in the book's own style, with a link to what is stored of it; a new query
    gets its results."""
    with static_server(site) as url:
        phone.goto(url + "/search.html?q=phase de combat")
        phone.locator("#results li").first.wait_for()
        phone.wait_for_function(READY, timeout=WORKER_WAIT_MS)
        status = phone.locator("#offline-status").inner_text()
        # The counts as French writes them (« 2 838 », narrow no-break space; book.js's own format).
        count = r"\d{1,3}(?:\u202f\d{3})*"
        assert re.match(rf"(Hors ligne : {count} / {count} pages disponibles|Tout le livre est disponible hors ligne)", status), status
        phone.context.set_offline(True)
        phone.goto(url + "/2004/309.html")
        assert phone.locator("h1").inner_text().startswith("309.")
        phone.goto(url + "/2004/en/212.html#R2121")  # a long English section: cut into one page per rule
        heading = phone.locator("h1").inner_text()
        if heading == "Page pas encore enregistrée":
            assert phone.locator("link[rel=stylesheet]").count() == 1  # the book's style
            assert phone.evaluate("getComputedStyle(document.querySelector('.site-header')).position") == "sticky"
            stored = phone.locator("main a[data-keep-hash]").evaluate_all("links => links.map(a => a.href)")
            assert stored and all(h.endswith("#R2121") for h in stored), stored
        else:
            assert heading.startswith("212.1"), heading
            phone.wait_for_url("**/2004/en/212.1.html#R2121")
        phone.goto(url + "/search.html?q=blessures de combat")
        phone.locator("#results li").first.wait_for()
        assert "résultat" in phone.locator("#search-status").inner_text()
        phone.context.set_offline(False)
    assert phone.errors == []


def test_a_page_not_stored_yet_says_so_with_a_link_to_the_same_rule_stored(site: Path, phone: Any, tmp_path: Path) -> None:
    """Offline, an English page not stored (here: missing from the server, so never stored)
    answers with the offline page, linking to the same section in French (stored), its
    anchor kept."""
    deployed = tmp_path / "deployed"
    shutil.copytree(site, deployed)
    (deployed / "2004" / "en" / "302.html").unlink()
    with static_server(deployed) as url:
        phone.goto(url + "/2004/302.html")
        phone.wait_for_function(READY, timeout=WORKER_WAIT_MS)
        phone.context.set_offline(True)
        phone.goto(url + "/2004/en/302.html#R3021")
        assert phone.locator("h1").inner_text() == "Page pas encore enregistrée"
        link = phone.locator("main a[data-keep-hash]").first
        assert link.get_attribute("href") == url + "/2004/302.html#R3021"
        link.click()
        phone.wait_for_url("**/2004/302.html#R3021")
        assert phone.locator("#R3021").is_visible()
        phone.context.set_offline(False)


def test_filling_resumes_after_the_network_drops(site: Path, phone: Any) -> None:
    with static_server(site) as url:
        phone.goto(url + "/2004/300.html")
        # Ready: the first-language pages and the index are there before anything else.
        phone.wait_for_function(READY, timeout=WORKER_WAIT_MS)
        phone.context.set_offline(True)
        phone.goto(url + "/2004/311.html")
        assert "311" in phone.locator("h1").inner_text()
        phone.goto(url + "/search.html?q=mana")
        phone.locator("#results li").first.wait_for()
        phone.context.set_offline(False)
        # Any page that opens asks the worker to go on, until the whole book is stored.
        phone.goto(url + "/index.html")
        phone.wait_for_function(STORED, timeout=WORKER_WAIT_MS)
        phone.context.set_offline(True)
        phone.goto(url + "/2004/glossaire.html")
        assert phone.locator("dl.glossary dt").count() > 100
        phone.context.set_offline(False)


def test_a_new_build_replaces_the_old_cache_when_asked(site: Path, phone: Any, tmp_path: Path) -> None:
    deployed = tmp_path / "deployed"
    shutil.copytree(site, deployed)
    with static_server(deployed) as url:
        phone.goto(url + "/index.html")
        _wait_stored(phone)
        caches = phone.evaluate("caches.keys()")
        assert len(caches) == 1 and caches[0].startswith("judge-")
        # A new build: another version, a changed page.
        worker = (deployed / "sw.js").read_text(encoding="utf-8")
        old = re.search(r'var VERSION = "([0-9a-f]+)"', worker).group(1)
        (deployed / "sw.js").write_text(worker.replace(old, "0" * len(old)), encoding="utf-8")
        index = deployed / "index.html"
        index.write_text(index.read_text(encoding="utf-8").replace("Règles complètes de Magic", "Règles du jour"),
                         encoding="utf-8")
        phone.reload()
        phone.locator("#book-update").wait_for(timeout=WORKER_WAIT_MS)
        # Until asked, the page stays on the build it came from.
        assert "Règles du jour" not in phone.locator("h1").inner_text()
        phone.locator("#book-update button").click()
        phone.wait_for_function("document.querySelector('h1').textContent.includes('Règles du jour')", timeout=WORKER_WAIT_MS)
        phone.wait_for_function("caches.keys().then(k => k.length === 1 && k[0] === 'judge-' + '0'.repeat(16))",
                                timeout=WORKER_WAIT_MS)


def test_file_url_registers_no_worker_and_still_searches(site: Path, phone: Any) -> None:
    requested: list[str] = []
    phone.on("request", lambda r: requested.append(r.url))
    phone.goto((site / "search.html").as_uri() + "?q=mana")
    phone.locator("#results li").first.wait_for()
    assert phone.evaluate("navigator.serviceWorker ? navigator.serviceWorker.controller : null") is None
    assert not [u for u in requested if u.endswith("sw.js")]
    assert phone.errors == []


# ---------------------------------------------------------------------- the search page's first answers
NUMBER_FORMS = [
    ("300.3", "2004/300.html#R3003"),
    ("r. 309.2a", "2004/309.html#R3092a"),
    ("310.2 c", "2004/310.html#R3102c"),
    ("CR 704.5g", "2010/en/704.html#R7045g"),
    ("règle 310.2c.", "2004/310.html#R3102c"),
    ("302-303", "2004/302.html#R302"),
]
AMBIGUOUS_FORMS = [
    ("R305.4", ["2004/305.html#R3054", "2010/en/305.html#R3054"]),
    ("règle 502", ["2004/en/502.html#R502", "2010/en/502.html#R502"]),
    ("303,1", ["2004/303.html#R3031", "2010/en/303.html#R3031"]),
    ("§ 308", ["2004/308.html#R308", "2010/en/308.html#R308"]),
]


@pytest.mark.parametrize(("query", "target"), NUMBER_FORMS)
def test_a_typed_rule_number_opens_its_rule_without_the_index(site: Path, plain: Any, query: str, target: str) -> None:
    requested: list[str] = []
    plain.on("request", lambda r: requested.append(r.url))
    with static_server(site) as url:
        # Typed in a rule page's box: the rule opens directly.
        plain.goto(f"{url}/2004/302.html")
        plain.fill("#q", query)
        plain.press("#q", "Enter")
        plain.wait_for_url(f"{url}/{target}")
        assert not [u for u in requested if "search" in u.rsplit("/", 1)[1]]
        # Given to the search page (a link, a bookmark): it opens the rule without the index (its
        # manifest, preloaded for words, held back here: the rule opens all the same).
        held: list[Any] = []
        plain.route("**/search/index.*.js", lambda route: held.append(route))
        plain.goto(f"{url}/search.html?q={query}", wait_until="commit")
        plain.wait_for_url(f"{url}/{target}")
    assert not [u for u in requested if "/search/" in u and "/search/index." not in u]  # no chunk of the index


@pytest.mark.parametrize(("query", "targets"), AMBIGUOUS_FORMS)
def test_a_number_of_several_editions_offers_them_before_the_index(
    site: Path, plain: Any, query: str, targets: list[str],
) -> None:
    held: list[Any] = []
    plain.route("**/search/index.*.js", lambda route: held.append(route))  # the index does not arrive
    with static_server(site) as url:
        plain.goto(f"{url}/search.html?q={query}", wait_until="domcontentloaded")
        choice = plain.locator("#rule-choice a")
        choice.first.wait_for()
        hrefs = choice.evaluate_all("links => links.map(a => a.href)")
        assert hrefs == [f"{url}/{t}" for t in targets]
        plain.wait_for_function("() => document.getElementById('search-status').textContent.includes('chargement')")
        assert held, "the full search is asked for too"


def test_the_query_shows_at_once_while_the_index_loads(site: Path, plain: Any) -> None:
    held: list[Any] = []
    plain.route("**/search/index.*.js", lambda route: held.append(route))
    with static_server(site) as url:
        plain.goto(f"{url}/search.html?q=phase de combat", wait_until="domcontentloaded")
        plain.wait_for_function("() => document.getElementById('search-status').textContent.includes('chargement')")
        assert plain.input_value("#q") == "phase de combat"
        assert plain.locator("#search-status").inner_text() == "« phase de combat » : chargement de l'index…"
        assert len(held) == 1
        held[0].continue_()
        plain.locator("#results li").first.wait_for()
        assert "résultat" in plain.locator("#search-status").inner_text()


def test_a_query_fetches_only_the_chunks_it_reads_and_the_next_one_runs_in_place(site: Path, plain: Any) -> None:
    """The index is fetched in chunks: a first query reads a small part of it; a second
    query typed in the page's box is searched without a new page, its URL pushed."""
    fetched: dict[str, int] = {}

    def finished(request: Any) -> None:
        response = request.response()
        if "/search/" in request.url and response is not None:
            fetched[request.url] = len(response.body())

    plain.on("requestfinished", finished)
    index = sum(path.stat().st_size for path in (site / "search").glob("*.js"))
    with static_server(site) as url:
        plain.goto(f"{url}/search.html?q=phase de combat")
        plain.locator("#results li").first.wait_for()
        assert plain.locator("#results li a").first.inner_text().startswith("306 ")
        first = dict(fetched)
        assert len([u for u in first if "/search/index." in u]) == 1
        assert 0 < sum(first.values()) < index / 10, (sum(first.values()), index)
        plain.evaluate("window.samePage = true")
        plain.fill("#q", "blessures de combat")
        plain.press("#q", "Enter")
        plain.wait_for_url("**/search.html?q=blessures%20de%20combat")
        plain.wait_for_function("() => document.getElementById('search-status').textContent.includes('blessures')"
                                " && document.querySelector('#results li') !== null")
        assert plain.evaluate("window.samePage") is True
        assert plain.locator("#results li a").first.inner_text().startswith("310 ")
        assert not [u for u in fetched if u not in first and "/search/index." in u]  # the manifest, once
        plain.go_back()
        plain.wait_for_function("() => document.getElementById('search-status').textContent.includes('phase de combat')"
                                " && document.querySelector('#results li') !== null")
        assert plain.evaluate("window.samePage") is True


def _type_a_second_query(page: Any, url: str, text: str, fetched: list[str]) -> int:
    """The search page opened on a first query (« phase de combat »), its requests done, then
    `text` typed in its box, a key every 60 ms, until the network is quiet: nothing is drawn
    for the query being typed (the first query's results stay). How many of the page's
    requests (`fetched`) came before the typing."""
    page.goto(f"{url}/search.html?q=phase de combat")
    page.locator("#results li").first.wait_for()
    page.wait_for_load_state("networkidle")
    before = len(fetched)
    page.fill("#q", "")
    page.type("#q", text, delay=60)
    page.wait_for_load_state("networkidle")
    assert page.locator("#search-status").inner_text().startswith("20 résultats pour « phase de combat »")
    return before


def test_a_query_typed_in_the_page_fetches_its_ranking_chunks_before_enter(site: Path, plain: Any) -> None:
    """While a second query is typed in the search page's box, the chunks its ranking reads are
    fetched (nothing drawn): its first result then needs no request of the index (the rest of
    the screen's cards and their extracts may follow). The manifest holds no FR↔EN glossary
    beyond its variant terms (the rest comes a word at a time)."""
    fetched: list[str] = []
    plain.on("request", lambda r: fetched.append(r.url) if "/search/" in r.url else None)
    with static_server(site) as url:
        before = _type_a_second_query(plain, url, "dégâts de combat", fetched)
        assert [u for u in fetched[before:] if "/search/t." in u], "the typed words' chunks"
        after = len(fetched)
        first = plain.evaluate("judgeSearchRun('dégâts de combat', 20, {first: 1}).then(f => f.results.length)")
        assert first >= 1
        assert not [u for u in fetched[after:] if "/search/t." in u or "/search/index." in u], fetched[after:]
        plain.press("#q", "Enter")
        plain.wait_for_function("() => document.getElementById('search-status').textContent.includes('dégâts')"
                                " && document.querySelector('#results li') !== null")
    manifest = next(site.glob("search/index.*.js")).read_text(encoding="utf-8")
    data = json.loads(manifest.split("\n", 1)[0].split("=", 1)[1].rstrip(";"))
    assert data["glossary"] and all(len(term) == 4 for term in data["glossary"])
    assert len(json.dumps(data["glossary"])) < 2000


def test_a_name_being_typed_fetches_what_its_query_reads_before_enter(site: Path, plain: Any) -> None:
    """The word being typed: while « blessures de c » is typed, the query of the FR↔EN name it
    may complete (« blessures de combat », whose notion's other names bring « étape » and
    « step ») is searched ahead, nothing drawn: the whole query then runs to its first result
    without a request (its ranking's chunks and its first card were fetched during the typing)."""
    fetched: list[str] = []
    plain.on("request", lambda r: fetched.append(r.url) if "/search/" in r.url else None)
    with static_server(site) as url:
        _type_a_second_query(plain, url, "blessures de c", fetched)
        before = len(fetched)
        first = plain.evaluate("judgeSearchRun('blessures de combat', 20, {first: 1}).then(f => f.results.map(r => r.number))")
        assert first == ["310"]
        assert not [u for u in fetched[before:] if "/search/t." in u or "/search/c." in u], fetched[before:]
