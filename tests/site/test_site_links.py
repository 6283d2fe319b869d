"""Every internal link of the static book resolves (file and anchor), and every page of the book
is a page of the web app with the same path."""

from __future__ import annotations

from collections import deque
from pathlib import Path
from urllib.parse import unquote, urlsplit

from links_support import page_links

from judge.site import offline
from judge.site.build import MARKER


def _crawl(site: Path, starts: list[Path]) -> tuple[set[Path], list[str]]:
    """Breadth-first from `starts` over every file link; returns (pages seen, broken links)."""
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
        links = page_links(path.read_text(encoding="utf-8"))
        ids[path] = links.ids
        for link in links.links:
            parts = urlsplit(link)
            assert not parts.scheme and not parts.netloc, f"{path.relative_to(site)} : lien externe {link}"
            target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
            if not target.is_file() or site.resolve() not in target.parents:
                broken.append(f"{path.relative_to(site)} → {link}")
                continue
            if parts.fragment:
                anchors.append((path, target, parts.fragment))
            queue.append(target)
    for source, target, fragment in anchors:
        if target.suffix == ".html" and fragment not in ids.get(target, frozenset()):
            broken.append(f"{source.relative_to(site)} → {target.relative_to(site)}#{fragment}")
    return seen, broken


def test_every_internal_link_of_the_static_book_resolves(site: Path, graph) -> None:  # type: ignore[no-untyped-def]
    root = site.resolve()
    # From every page (nothing links to the per-rule redirect pages) …
    _, broken = _crawl(root, sorted(root.rglob("*.html")))
    assert broken == []
    # … and from the index alone, which reaches every section of every edition and language.
    seen, _ = _crawl(root, [root / "index.html"])
    for edition in graph.editions:
        for n, language in enumerate(edition.languages):
            folder = site / edition.id if n == 0 else site / edition.id / language
            for rule in graph.rules(edition.id, language):
                page = (folder / f"{rule.number.split('.')[0]}.html").resolve()
                assert page in seen, page


def test_every_rule_has_a_redirect_page_that_names_its_anchor(site: Path, graph) -> None:  # type: ignore[no-untyped-def]
    for rule in graph.rules("2004"):
        if "." not in rule.number:
            continue
        page = site / "2004" / f"{rule.number}.html"
        links = page_links(page.read_text(encoding="utf-8"))
        anchor = "R" + rule.number.replace(".", "")
        assert f"{rule.number.split('.')[0]}.html#{anchor}" in links.links


STATIC_ONLY = {*offline.static_only(), MARKER}  # MARKER: the build's own record


def test_every_page_of_the_book_is_served_by_the_app(site: Path, client) -> None:  # type: ignore[no-untyped-def]
    # The offline book's own files (manifest, icons, service worker, the number list of the
    # static search page and its index's chunks under search/) are the static book's only: the
    # served book is online and searches on the server.
    files = sorted(p.relative_to(site).as_posix() for p in site.rglob("*")
                   if p.is_file() and p.name not in STATIC_ONLY and not p.name.startswith(("rule-numbers.", "offline-files."))
                   and p.parent.name not in ("search", "offline"))
    for relative in files:
        response = client.get("/" + relative, follow_redirects=True)
        assert response.status_code == 200, relative
