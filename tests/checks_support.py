"""Shared helpers for the situation checker tests: the real rule graph and situation files."""

from __future__ import annotations

import json
import tomllib
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from judge.corpus.loader import load_graph
from judge.game.situation import load_situation
from judge.game.situationmodel import Situation

if TYPE_CHECKING:
    from judge.checks.context import RuleSource

SITUATIONS = Path(__file__).parent / "situations"


@cache
def real_graph() -> RuleSource:
    """The embedded corpus, loaded once per test session."""
    graph: RuleSource = load_graph()
    return graph


def situation_files() -> list[Path]:
    return sorted(p for p in SITUATIONS.iterdir() if p.suffix in (".toml", ".json"))


def load_case(path: Path) -> tuple[Situation, list[dict[str, object]]]:
    """A situation file without its `expect` list, and that list."""
    text = path.read_text(encoding="utf-8")
    data = tomllib.loads(text) if path.suffix == ".toml" else json.loads(text)
    expect = data.pop("expect")
    return load_situation(json.dumps(data), source=str(path), fmt="json"), expect


def situation(text: str) -> Situation:
    return load_situation(text, fmt="toml")
