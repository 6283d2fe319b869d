"""Hypothesis fuzz of the situation loader: random JSON and TOML, and random situations with
the right keys and wrong values. Every input is answered or refused with a French
`JudgeError`; `judge check` exits 0 or 2, never with a traceback."""

from __future__ import annotations

import io
import json
import re
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judge.checks.report import check, report_json
from judge.cli import main
from judge.errors import JudgeError
from judge.game.situation import load_situation
from judge.game.situationmodel import ASKS

PROGRESS = re.compile(r"^\[ *\d+\.\d s\] ")

SCALARS = st.none() | st.booleans() | st.integers(min_value=-2**70, max_value=2**70) | st.floats() | st.text(max_size=12)
JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=20)
WORDS = st.sampled_from([
    "A", "B", "2004", "2010", "1999", "combat", "beginning", "upkeep", "draw", "precombat_main", "main",
    "declare_attackers", "declare_blockers", "combat_damage", "end_of_turn", "cleanup", "début", "entretien",
    "Ours", "haste", "célérité", "flying", "instant", "sorcery", "creature", "pass", "cast", "next",
])
VALUE = WORDS | SCALARS | st.lists(WORDS | SCALARS, max_size=3)
QUESTION = st.builds(
    lambda ask, extra: {"ask": ask, **extra},
    st.sampled_from([*ASKS, "unknown"]),
    st.dictionaries(st.sampled_from(["player", "kind", "creature", "attacker", "count", "other"]), VALUE, max_size=2),
)
CREATURE = st.dictionaries(
    st.sampled_from(["name", "controller", "tapped", "since_turn_start", "abilities", "attacking", "blocking",
                     "power", "first_strike_dealt", "x"]), VALUE, max_size=5)
EVENT = st.dictionaries(st.sampled_from(["do", "player", "kind", "creature", "creatures", "blockers", "x"]),
                        VALUE, max_size=3)
SITUATION = st.fixed_dictionaries(
    {},
    optional={
        "edition": VALUE, "active": VALUE, "players": VALUE | st.lists(WORDS, max_size=4), "phase": VALUE,
        "step": VALUE, "priority": VALUE, "stack": VALUE | st.lists(st.dictionaries(WORDS, VALUE, max_size=2), max_size=2),
        "lands_played": VALUE, "hands": VALUE | st.dictionaries(WORDS, VALUE, max_size=2), "max_hand_size": VALUE,
        "extra_turns": VALUE, "skip": VALUE, "damage_step": VALUE, "mana_pools": VALUE,
        "creatures": st.lists(CREATURE, max_size=3), "events": st.lists(EVENT, max_size=4),
        "questions": st.lists(QUESTION, max_size=3), "expect": VALUE,
    },
)


def _french(error: JudgeError) -> None:
    message = str(error)
    assert message and "Traceback" not in message
    for english in ("object has no", "invalid literal", "unhashable", "NoneType", "Expected", "got an unexpected"):
        assert english not in message, message


def _answer(graph: Any, text: str, fmt: str | None) -> None:
    try:
        report = check(graph, load_situation(text, source="fuzz", fmt=fmt))
    except JudgeError as error:
        _french(error)
        return
    json.dumps(report_json(report))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SITUATION)
def test_situation_shaped_json_is_answered_or_refused_in_french(graph, data: dict[str, Any]) -> None:
    _answer(graph, json.dumps(data), "json")


@settings(max_examples=200, deadline=None)
@given(JSON)
def test_random_json_is_answered_or_refused_in_french(graph, data: object) -> None:
    _answer(graph, json.dumps(data), "json")


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200) | st.lists(st.sampled_from(
    ["edition = ", "\"2004\"", "2004", "phase", " = ", "[[creatures]]", "[[questions]]", "ask = \"attack\"",
     "\n", "name = \"Ours\"", "[", "]", "{", "}", "'", "\"", "#", "\x00", "é", "= true", "1979-05-27"]), max_size=20).map("".join))
def test_random_toml_is_answered_or_refused_in_french(graph, text: str) -> None:
    _answer(graph, text, "toml")
    _answer(graph, text, None)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(SITUATION)
def test_cli_check_exits_0_or_2_with_one_french_line(tmp_path: Path, data: dict[str, Any]) -> None:
    path = tmp_path / "situation.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["check", str(path), "--json"])
    assert code in (0, 2), err.getvalue()
    # A first run may say on stderr which cache it builds (`judge.progress`: « [  0.6 s] … »).
    lines = [line for line in err.getvalue().splitlines() if not PROGRESS.match(line)]
    if code == 2:
        assert len(lines) == 1 and lines[0].startswith("judge : ") and "Traceback" not in lines[0]
    else:
        assert lines == [] and '"answers"' in out.getvalue()
