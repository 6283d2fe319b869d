"""The static book deploys anywhere: relative links served by `python -m http.server` under any
sub-path and opened from `file://`; `--base-url /regles/` served under `/regles/`. Every link
of every page is followed (pages, styles, scripts, anchors)."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from pathlib import Path
from urllib.parse import urldefrag, urljoin, urlsplit
from urllib.request import urlopen

import pytest
from links_support import PageLinks, page_links

from judge.cli import main
from judge.site.build import base_url


def _crawl(start: str) -> tuple[int, set[str]]:
    """Follow every link inside the site from `start`; (links checked, every page URL)."""
    prefix = start.rsplit("/", 1)[0] + "/"
    pages: dict[str, PageLinks] = {}
    todo, fragments = [start], []
    while todo:
        url = todo.pop()
        if url in pages:
            continue
        with urlopen(url, timeout=30) as response:
            body = response.read()
        page = pages[url] = page_links(body.decode("utf-8") if url.endswith(".html") else "")
        for link in page.links:
            target, fragment = urldefrag(urljoin(url, link))
            assert target.startswith(prefix), f"{url} : lien hors du livre {link}"
            if "?" in target:
                continue  # a search form's target, checked as a page below
            todo.append(target)
            if fragment:
                fragments.append((url, link, target, fragment))
    for url, link, target, fragment in fragments:
        assert fragment in pages[target].ids, f"{url} : ancre absente {link}"
    return sum(len(p.links) for p in pages.values()), set(pages)


@contextmanager
def _http_server(folder: Path) -> Iterator[str]:
    """`python -m http.server` on a free loopback port, serving `folder`."""
    process = subprocess.Popen(
        [sys.executable, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", str(folder)],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        port = re.search(r"port (\d+)", line)
        assert port, line
        yield f"http://127.0.0.1:{port.group(1)}"
    finally:
        process.terminate()
        process.wait(10)
        if process.stdout is not None:
            process.stdout.close()


@pytest.fixture(scope="module")
def relative_site(site: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A web root holding the session's book (built with relative links) two folders down."""
    www = tmp_path_factory.mktemp("www")
    shutil.copytree(site, www / "livre" / "de-poche")
    return www


def test_relative_book_is_served_by_http_server_under_any_sub_path(relative_site: Path) -> None:
    with _http_server(relative_site) as server:
        checked, pages = _crawl(f"{server}/livre/de-poche/index.html")
    assert checked > 500
    from judge.site.templating import asset_name

    assert f"{server}/livre/de-poche/{asset_name('style.css')}" in pages
    assert f"{server}/livre/de-poche/search.html" in pages


def test_relative_book_opens_from_file_urls(relative_site: Path) -> None:
    index = (relative_site / "livre" / "de-poche" / "index.html").resolve()
    checked, pages = _crawl(index.as_uri())
    assert checked > 500
    assert all(urlsplit(p).scheme == "file" for p in pages)


def test_base_url_book_is_served_under_its_sub_path(site_under_base_url: Path) -> None:
    root = site_under_base_url
    html = (root / "regles" / "2004" / "index.html").read_text(encoding="utf-8")
    from judge.site.templating import asset_name

    assert f'href="/regles/{asset_name("style.css")}"' in html and '"../' not in html
    with _http_server(root) as server:
        checked, pages = _crawl(f"{server}/regles/index.html")
    assert checked > 500
    # the same pages as the relative book
    relative = {p.relative_to(root / "regles").as_posix() for p in (root / "regles").rglob("*")
                if p.is_file()}
    assert {p.removeprefix(f"{server}/regles/") for p in pages} <= relative


def test_base_url_is_normalised_and_checked() -> None:
    assert base_url("/regles") == "/regles/"
    assert base_url("https://exemple.org/mtg/regles/") == "https://exemple.org/mtg/regles/"
    for bad in ("regles/", "/re gles/", "/../x/", "javascript:alert(1)/", "//evil/"):
        err = io.StringIO()
        with redirect_stdout(io.StringIO()), redirect_stderr(err):
            code = main(["build", "--out", "/nonexistent/never", "--base-url", bad])
        assert code == 2, bad
        assert err.getvalue().startswith("judge : --base-url invalide"), err.getvalue()
