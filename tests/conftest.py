"""Shared fixtures: the real corpus graph, the reference texts in ../shared (skipped when absent),
and what is costly to make and only read by the tests that use it, made once per session: the
static book (`site`, `site_under_base_url`), the app and its test client (`app`, `client`), the
app served on loopback (`served`), Chromium (`browser`) and its tabs (`page`, `phone`). A test
that changes one of them makes its own (a copy of the book, an app of its own). The books are
built once per run, not once per pytest-xdist worker (`shared_folder`)."""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("JUDGE_SHARED", ROOT.parent / "shared"))
EN_DIR = SHARED / "corpora" / "en"
STARTUP = 300.0  # seconds for a served app to start (its worker process) on a loaded machine


# The test files that take longest (seconds of a whole suite under pytest-xdist, `--durations`,
# 2026-12-07), longest first: pytest-xdist's `loadfile` hands them out first, each to the next
# free worker, and the many short files even out the end (the default order, files with more
# tests first, left these for the end: one worker busy alone for minutes). Any other file
# follows, in the order collected.
LONGEST_FIRST = (
    "web/test_page_types_browser.py", "corpus/test_store.py", "site/test_site.py",
    "site/test_offline_browser.py", "test_cache.py", "hostile/test_bounded_caches.py",
    "site/test_search_browser.py", "hostile/test_cli_hostile.py", "search/test_engine.py",
    "search/test_helper.py", "site/test_phone_browser.py", "web/test_server_links.py",
    "web/test_hostile.py", "web/test_pool.py", "site/test_deploy.py", "web/test_hostile_neighbour.py",
    "site/test_site_links.py", "search/test_search.py", "cli/test_first_run.py",
    "corpus/test_concordance_gold.py", "ask/test_ask_questions.py", "corpus/test_concordance.py",
)


def pytest_configure(config: pytest.Config) -> None:
    # pytest-xdist keeps the collected order of the files (`pytest_collection_modifyitems`).
    if hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {name: n for n, name in enumerate(LONGEST_FIRST)}

    def file_rank(item: pytest.Item) -> int:
        return rank.get(item.nodeid.split("::")[0].removeprefix("tests/"), len(rank))

    items.sort(key=file_rank)  # stable: each file's tests in their order, the others' files too


@pytest.fixture(scope="session", autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory) -> None:
    os.environ["JUDGE_CACHE_DIR"] = str(tmp_path_factory.mktemp("judge-cache"))


def shared_folder(tmp_path_factory: pytest.TempPathFactory, name: str, make: Callable[[Path], None]) -> Path:
    """The folder `name`, made by `make` once per run: under pytest-xdist, by the first worker
    that asks, in the run's temporary folder (the workers' common parent), the others waiting
    for it on a lock; alone, in the session's. A run's temporary folder is new, so a folder
    there is this run's; a make that failed leaves no mark, and the next worker tries again."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent
    folder, done = base / f"shared-{name}", base / f"shared-{name}.done"
    with open(base / f"shared-{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file is closed
        if not done.exists():
            with contextlib.suppress(FileNotFoundError):
                shutil.rmtree(folder)
            folder.mkdir()
            make(folder)
            done.touch()
    return folder


@pytest.fixture(scope="session")
def site(graph, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The static book as `judge build` writes it (relative links), built once per run: read it,
    never change it (copy it first)."""
    from judge.site.build import build_site

    return shared_folder(tmp_path_factory, "book", lambda folder: build_site(graph, folder / "site")) / "site"


@pytest.fixture(scope="session")
def site_under_base_url(graph, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A root folder holding, in `regles/`, the book built with `--base-url /regles/` (once per
    run: read it, never change it)."""
    from judge.site.build import build_site

    return shared_folder(tmp_path_factory, "base", lambda root: build_site(graph, root / "regles", base_url="/regles/"))


@pytest.fixture(scope="session")
def app(graph):
    """The web app with one worker process and a loaded machine's time budget
    (`app_support.unhurried`), shared by the tests that send it requests. A test that changes
    its state (a budget, the pool's capacity) puts it back before it ends."""
    from app_support import unhurried

    from judge.web.app import create_app

    return unhurried(create_app(graph, processes=1))


@pytest.fixture(scope="session")
def client(app) -> Iterator[Any]:
    """A test client of `app`, its lifespan (the worker) started once for the session."""
    from app_support import client_of

    with client_of(app) as test_client:
        yield test_client


@pytest.fixture(scope="session")
def served(graph) -> Iterator[str]:
    """The web app served by uvicorn on a free loopback port, for the browser tests; its address."""
    from app_support import unhurried

    from judge.web.app import background_server, create_app

    # Its lifespan starts the worker: on a loaded machine that takes more than the default 10 s.
    with background_server(unhurried(create_app(graph, processes=1)), timeout=STARTUP) as url:
        yield url


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One Debian Chromium (Playwright) for every real-browser test of the session."""
    from browser_support import ARGS, CHROMIUM

    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield instance
        finally:
            instance.close()


@pytest.fixture(scope="session")
def graph():
    """The embedded corpus's graph, loaded once per session: the very object
    `checks_support.real_graph()` gives the tests that read it outside a fixture."""
    from checks_support import real_graph

    return real_graph()


def english_text(name: str) -> Path:
    path = EN_DIR / name
    if not path.is_file():
        pytest.skip(f"texte de référence absent : {path}")
    return path


@pytest.fixture
def en2004() -> Path:
    return english_text("CR-2004-06-01.txt")


@pytest.fixture
def en2010() -> Path:
    return english_text("CR-2010-07-16.txt")


@pytest.fixture
def en2022() -> Path:
    return english_text("CR-2022-11-18.txt")


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh French-locale tab of the session's Chromium (`browser_support.new_tab`)."""
    from browser_support import new_tab

    with new_tab(browser) as tab:
        yield tab


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """A fresh tab of the session's Chromium on a phone (`browser_support.PHONE`)."""
    from browser_support import PHONE, new_tab

    with new_tab(browser, **PHONE) as tab:
        yield tab
