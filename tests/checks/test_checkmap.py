"""The on-disk checks-per-rule map agrees with the checks' own registry."""

from __future__ import annotations

from judge.checks.rulemap import _build, load_checks_for
from judge.corpus.graph import RuleGraph


def test_checkmap_matches_registry_for_every_rule(graph: RuleGraph) -> None:
    registry = _build(graph.editions)  # the checks' own registry, read now
    cached = load_checks_for(graph.editions)
    again = load_checks_for(graph.editions)  # second call reads the cache file
    for rule in graph.all_rules():
        expected = registry.get((rule.edition, rule.number), ())
        assert cached(rule.edition, rule.number) == expected
        assert again(rule.edition, rule.number) == expected
    assert cached("2004", "305.4")  # the land-play check implements 305.4
