"""Shared fixtures: the real corpus graph, the reference texts in ../shared (skipped when absent)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("JUDGE_SHARED", ROOT.parent / "shared"))
EN_DIR = SHARED / "corpora" / "en"


@pytest.fixture(scope="session", autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory) -> None:
    os.environ["JUDGE_CACHE_DIR"] = str(tmp_path_factory.mktemp("judge-cache"))


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
def graph():  # type: ignore[no-untyped-def]
    from judge.corpus.loader import load_graph

    return load_graph()


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
    """A fresh French-locale tab of the session's Chromium; its console errors and uncaught
    exceptions are collected in `page.console_errors`."""
    context = browser.new_context(locale="fr-FR")
    tab = context.new_page()
    errors: list[str] = []
    tab.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    tab.on("pageerror", lambda exc: errors.append(str(exc)))
    tab.console_errors = errors
    try:
        yield tab
    finally:
        context.close()
