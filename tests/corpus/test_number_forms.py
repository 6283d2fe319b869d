"""Every typed form of a rule number (tests/corpus/number-forms.toml) is read the same way by the
library, `judge rule`, `judge history`, `judge diff --section`, the search and the web app (the
static book's scripts: tests/site/test_search_browser.py)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from judge.cli import main
from judge.corpus.numbers import RuleQuery, read_rule_number, read_rule_query, sort_key
from judge.errors import JudgeError

FORMS = Path(__file__).with_name("number-forms.toml")


def cases() -> list[dict[str, str]]:
    return tomllib.loads(FORMS.read_text(encoding="utf-8"))["case"]


NUMBERS = [c for c in cases() if "low" in c]
SINGLE = [c for c in NUMBERS if "high" not in c]
WORDS = [c["typed"] for c in cases() if "low" not in c]


def expected(case: dict[str, str]) -> RuleQuery | None:
    return RuleQuery(case["low"], case.get("high")) if "low" in case else None


def in_span(number: str, case: dict[str, str]) -> bool:
    """Between the case's numbers, the last one's sub-rules included (302-303 shows 303.1)."""
    high = case.get("high", case["low"])
    return sort_key(case["low"]) <= sort_key(number) and (sort_key(number) <= sort_key(high)
                                                          or number.startswith(high + "."))


def test_the_table_holds_every_form_of_the_issue() -> None:
    typed = {c["typed"] for c in cases()}
    assert {"R305.4", "r. 309.2a", "310.2 c", "CR 704.5g", "règle 502", "303,1", "§ 308", "302-303",
            "308.2a-c"} <= typed
    assert len(NUMBERS) >= 15 and len(WORDS) >= 5


@pytest.mark.parametrize("case", cases(), ids=lambda c: c["typed"])
def test_the_library_reads_each_form(case: dict[str, str]) -> None:
    assert read_rule_query(case["typed"]) == expected(case)


def test_a_long_text_is_no_number() -> None:
    assert read_rule_query("règle " + " " * 200 + "305.4") is None
    with pytest.raises(JudgeError, match="numéro de règle invalide"):
        read_rule_number("302-303")
    with pytest.raises(JudgeError, match="numéro de section invalide"):
        read_rule_number("305.4", section=True)


@pytest.mark.parametrize("case", NUMBERS, ids=lambda c: c["typed"])
def test_judge_rule_reads_each_form(case: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule", case["typed"], "--edition", case["edition"], "--json"]) == 0
    shown = [rule["number"] for rule in json.loads(capsys.readouterr().out)]
    assert shown[0] == case["low"]
    assert all(in_span(n, case) for n in shown)
    if "high" in case:
        assert case["high"] in shown or any(n.startswith(case["high"]) for n in shown)


@pytest.mark.parametrize("case", SINGLE, ids=lambda c: c["typed"])
def test_judge_history_reads_each_form(case: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["history", case["typed"], "--edition", case["edition"], "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found and all(item["number"] == case["low"] for item in found)


@pytest.mark.parametrize("typed", ["§ 305", "règle 305", "305"])
def test_judge_diff_reads_a_typed_section(typed: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", "2004", "2010", "--section", typed]) == 0
    assert ", section 305 " in capsys.readouterr().out


@pytest.mark.parametrize("typed", WORDS)
def test_commands_refuse_words_in_french(typed: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule", typed]) != 0
    assert main(["history", typed]) != 0
    assert "numéro de règle invalide" in capsys.readouterr().err


def test_the_search_finds_each_single_form(graph: Any) -> None:
    from judge.search.engine import index_for
    from judge.search.query import search_with

    index = index_for(graph)
    for case in SINGLE:
        hits = search_with(index, case["typed"], limit=3, edition=case["edition"]).hits
        assert hits and hits[0].number == case["low"], case["typed"]


def test_the_app_reads_each_form(client: Any) -> None:
    for case in NUMBERS:
        response = client.get(f"/api/rule/{quote(case['typed'], safe='')}", params={"edition": case["edition"]})
        assert response.status_code == 200, case["typed"]
        shown = [rule["number"] for rule in response.json()]
        assert shown[0] == case["low"] and all(in_span(n, case) for n in shown), case["typed"]
        # The search box opens the (first) rule of the one edition asked.
        response = client.get("/recherche", params={"q": case["typed"], "edition": case["edition"]},
                              follow_redirects=False)
        assert response.status_code == 307, case["typed"]
        assert response.headers["location"].startswith(f"/{case['edition']}/"), case["typed"]
    for case in SINGLE:
        response = client.get(f"/api/history/{quote(case['typed'], safe='')}", params={"edition": case["edition"]})
        assert response.status_code == 200 and response.json()[0]["number"] == case["low"], case["typed"]
    for typed in WORDS:
        assert client.get(f"/api/rule/{quote(typed, safe='')}").status_code == 400, typed
