"""Every internal link of the static book resolves (file and anchor), and every page of the book
is a page of the web app with the same path."""

from __future__ import annotations

from collections import deque
from pathlib import Path
from urllib.parse import unquote, urlsplit

from links_support import PageLinks, page_links

from judge.site import offline
from judge.site.build import MARKER


class _Book:
    """A built book, read once for every crawl of it: each page's links and ids, and the file of
    the book each link's path names from a folder (the same few links are on every page)."""

    def __init__(self, site: Path) -> None:
        self.root = site.resolve()
        self._pages: dict[Path, PageLinks] = {}
        self._files: dict[tuple[Path, str], Path | None] = {}

    def links(self, page: Path) -> PageLinks:
        if page not in self._pages:
            self._pages[page] = page_links(page.read_text(encoding="utf-8"))
        return self._pages[page]

    def file(self, folder: Path, path: str) -> Path | None:
        """The book's file a link's path names from `folder`; None when it is no file of the book."""
        key = (folder, path)
        if key not in self._files:
            target = (folder / unquote(path)).resolve()
            self._files[key] = target if target.is_file() and self.root in target.parents else None
        return self._files[key]


def _crawl(book: _Book, starts: list[Path]) -> tuple[set[Path], list[str]]:
    """Breadth-first from `starts` over every file link; returns (pages seen, broken links)."""
    site = book.root
    seen: set[Path] = set()
    broken: list[str] = []
    ids: dict[Path, frozenset[str]] = {}
    anchors: list[tuple[Path, Path, str]] = []
    queue = deque(starts)
    while queue:
        path = queue.popleft()
        if path in seen:
            continue
        seen.add(path)
        if path.suffix != ".html":
            continue
        links = book.links(path)
        ids[path] = links.ids
        for link in links.links:
            parts = urlsplit(link)
            assert not parts.scheme and not parts.netloc, f"{path.relative_to(site)} : lien externe {link}"
            target = book.file(path.parent, parts.path) if parts.path else path
            if target is None:
                broken.append(f"{path.relative_to(site)} → {link}")
                continue
            if parts.fragment:
                anchors.append((path, target, parts.fragment))
            queue.append(target)
    for source, target, fragment in anchors:
        if target.suffix == ".html" and fragment not in ids.get(target, frozenset()):
            broken.append(f"{source.relative_to(site)} → {target.relative_to(site)}#{fragment}")
    return seen, broken


def test_every_internal_link_of_the_static_book_resolves(site: Path, graph) -> None:
    book = _Book(site)
    root = book.root
    # From every page (nothing links to the per-rule redirect pages) …
    _, broken = _crawl(book, sorted(root.rglob("*.html")))
    assert broken == []
    # … and from the index alone, which reaches every section of every edition and language.
    seen, _ = _crawl(book, [root / "index.html"])
    for edition in graph.editions:
        for n, language in enumerate(edition.languages):
            folder = site / edition.id if n == 0 else site / edition.id / language
            for rule in graph.rules(edition.id, language):
                page = (folder / f"{rule.number.split('.')[0]}.html").resolve()
                assert page in seen, page


def test_every_rule_has_a_redirect_page_that_names_its_anchor(site: Path, graph) -> None:
    for rule in graph.rules("2004"):
        if "." not in rule.number:
            continue
        page = site / "2004" / f"{rule.number}.html"
        links = page_links(page.read_text(encoding="utf-8"))
        anchor = "R" + rule.number.replace(".", "")
        assert f"{rule.number.split('.')[0]}.html#{anchor}" in links.links


STATIC_ONLY = {*offline.static_only(), MARKER}  # MARKER: the build's own record


def test_every_page_of_the_book_is_served_by_the_app(site: Path, client) -> None:
    # The offline book's own files (manifest, icons, service worker, the number list of the
    # static search page and its index's chunks under search/) are the static book's only: the
    # served book is online and searches on the server.
    files = sorted(p.relative_to(site).as_posix() for p in site.rglob("*")
                   if p.is_file() and p.name not in STATIC_ONLY and not p.name.startswith(("rule-numbers.", "offline-files."))
                   and p.parent.name not in ("search", "offline"))
    # A redirect followed by hand, each target fetched once: the 2 523 per-rule pages of the book
    # are redirects to some 300 section pages.
    final: dict[str, int] = {}

    def status(url: str) -> int:
        if url not in final:
            response = client.get(url, follow_redirects=False)
            if response.is_redirect:
                target = urlsplit(response.headers["location"])
                assert not target.netloc or target.netloc == "localhost", (url, target)
                final[url] = status(target.path + (f"?{target.query}" if target.query else ""))
            else:
                final[url] = response.status_code
        return final[url]

    for relative in files:
        assert status("/" + relative) == 200, relative
