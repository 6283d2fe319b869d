"""The on-disk checks-per-rule map agrees with the checks' own registry."""

from __future__ import annotations

from judge.checks.rulemap import checks_for, load_checks_for
from judge.corpus.graph import RuleGraph


def test_checkmap_matches_registry_for_every_rule(graph: RuleGraph) -> None:
    cached = load_checks_for()
    again = load_checks_for()  # second call reads the cache file
    for rule in graph.all_rules():
        assert cached(rule.edition, rule.number) == checks_for(rule.edition, rule.number)
        assert again(rule.edition, rule.number) == checks_for(rule.edition, rule.number)
    assert cached("2004", "305.4")  # the land-play check implements 305.4
