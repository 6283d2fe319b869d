"""Rule histories, word diffs and the changes between editions, on the real texts."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from judge.corpus.history import (
    changes,
    changes_json,
    changes_text,
    diff_markup,
    histories,
    history,
    history_json,
    history_text,
    word_diff,
)

words = st.lists(st.sampled_from(["the", "battlefield", "in", "play", "cast", "a", "spell", "(See", "rule",
                                  "305.4)", "—", "«", "»"]), max_size=30)


@given(words, words, st.sampled_from([" ", "  ", "\n"]))
def test_word_diff_rebuilds_both_texts(old: list[str], new: list[str], space: str) -> None:
    a, b = space.join(old), space.join(new)
    ops = word_diff(a, b)
    assert "".join(t for op, t in ops if op != "+").split() == a.split()
    assert "".join(t for op, t in ops if op != "-") == b
    assert all(op in "=-+" and text for op, text in ops)


def test_word_diff_markup() -> None:
    ops = word_diff("See rule 212.6, Lands.", "See rule 305, Lands.")
    assert ops == (("=", "See rule "), ("-", "212.6, "), ("+", "305, "), ("=", "Lands."))
    assert diff_markup(ops) == "See rule [-212.6,-] {+305,+} Lands."


def test_history_of_305_4(graph) -> None:
    item = history(graph, "2004", "305.4")
    first, second = item.steps
    assert (first.edition, first.rule.number, first.change) == ("2004", "305.4", None)
    assert (second.edition, second.rule.number, second.change) == ("2010", "505.5b", "edited")
    old, new = graph.get("2004", "305.4", "en").text, graph.get("2010", "505.5b", "en").text
    assert "".join(t for op, t in second.diff if op != "-") == new
    assert "".join(t for op, t in second.diff if op != "+").split() == old.split()
    assert ("-", "212.6, ") in second.diff and ("+", "305, ") in second.diff
    data = history_json(graph, item)
    assert data["steps"][1]["number"] == "505.5b" and data["steps"][1]["change"] == "edited"
    assert data["steps"][0]["texts"]["fr"].startswith("Pendant l'une ou l'autre des phases principales")
    assert data["steps"][1]["texts"]["en"] == new
    text = history_text(graph, item)
    assert "2010 — 505.5b : modifiée" in text and "[-212.6,-] {+305,+}" in text


def test_history_backwards_and_removed(graph) -> None:
    (item,) = histories(graph, "505.5b")
    assert [(s.edition, s.rule.number if s.rule else None) for s in item.steps] == [("2004", "305.4"), ("2010", "505.5b")]
    (burn,) = histories(graph, "300.3", "2004")
    assert [s.change for s in burn.steps] == [None, "removed"] and burn.steps[1].rule is None
    assert burn.steps[1].reason.startswith("La brûlure de mana a été supprimée")
    new_rule = history(graph, "2010", "500.4")
    assert [(s.rule is None, s.change) for s in new_rule.steps] == [(True, None), (False, "added")]
    both = histories(graph, "305.4")  # 2004's 305.4 and 2010's 305.4 are different rules
    assert [h.edition for h in both] == ["2004", "2010"]
    assert both[1].steps[0].rule.number != "305.4"


def test_split_shows_the_other_counterparts(graph) -> None:
    item = history(graph, "2004", "303.1")
    step = item.steps[1]
    assert step.change == "split" and {step.rule.number, *step.also} == {"503.1", "503.2"}


def test_changes_of_section_305(graph) -> None:
    result = changes(graph, "2004", "2010", "305")
    data = changes_json(result)
    assert (data["from"], data["to"], data["section"]) == ("2004", "2010", "305")
    assert {"from": "305.4", "to": "505.5b", "change": "edited"}.items() <= data["pairs"][-1].items()
    assert all(p["from"].split(".")[0] == "305" for p in data["pairs"])
    assert data["removed"] == []
    assert set(data["added"]) == {"505.1a", "505.3"}  # new in 2010's main phase (Archenemy, first main phase)
    text = changes_text(graph, result)
    assert "Section 305 → 505" in text and "505.5b" in text and "ajoutées : 505.1a, 505.3" in text
    everything = changes_json(changes(graph, "2004", "2010"))
    assert "300.3" in everything["removed"] and everything["section"] is None
    assert any(r["number"] == "300.3" for r in everything["reasons"])
