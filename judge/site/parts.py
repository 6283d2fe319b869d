"""Light pages: a section too long for one phone page is cut into one page per rule.

Owns the decision and the page of each rule. A section whose page would weigh more than a
phone reads quickly (`PAGE_BUDGET` bytes of HTML, estimated from its text and rule count, or
more than `MAX_RULES` rules) is *split*: its page (`2010/en/702.html`) becomes the section's
index (the section's own rule, then a link to each of its rules), and each of its rules with
its subrules gets a page at the rule's own URL (`2010/en/702.19.html`, which is otherwise a
redirect page). Anchors stay as they were: `702.html#R70219a` opens the index, whose
`rule-jump.js` sends the reader on to `702.19.html#R70219a` (the part of an anchor is read
from it: the section's three digits, then the rule's number). The served book (`judge serve`)
keeps whole sections.
"""

from __future__ import annotations

import re
from functools import lru_cache

from judge.corpus.documents import Rule
from judge.corpus.graph import RuleGraph

# Past these, a section's page is cut: about 60 kB of HTML or 1,500 elements once rendered.
PAGE_BUDGET = 48_000
MAX_RULES = 60
# The HTML of a rule: about this many bytes per character of its text, plus a fixed part.
PER_CHARACTER = 2.2
PER_RULE = 1_100
_TOP = re.compile(r"^(\d{3}\.\d+)")


def top_rule(number: str) -> str | None:
    """`702.19a` -> `702.19`: the rule a subrule belongs to (None for a section: `702`)."""
    match = _TOP.match(number)
    return match.group(1) if match else None


class SectionParts:
    """Which sections of a graph are split, and the page of each rule (static book only)."""

    def __init__(self, graph: RuleGraph) -> None:
        self.graph = graph
        self._split = lru_cache(maxsize=None)(self._decide)

    def _decide(self, edition: str, language: str, section: str) -> bool:
        primary = self.graph.primary_language(edition)
        rules = [r for r in self.graph.rules(edition, language) if r.number.split(".", 1)[0] == section]
        shown = list(rules)
        if language == primary:  # a first-language page shows each rule's translations beside it
            for rule in rules:
                shown.extend(self.graph.translations(rule))
        weight = sum(PER_CHARACTER * (len(r.text or "") + sum(len(e.text) for e in r.examples))
                     + PER_RULE for r in shown)
        return len(shown) > MAX_RULES or weight > PAGE_BUDGET

    def is_split(self, edition: str, language: str, section: str) -> bool:
        return self._split(edition, language, section)

    def part(self, rule: Rule) -> str | None:
        """The number of the page holding `rule` in a split section (`702.19`), else None
        (a whole section, or the section's own rule: on the index)."""
        top = top_rule(rule.number)
        if top is None or not self.is_split(rule.edition, rule.language, rule.number.split(".", 1)[0]):
            return None
        return top

    def split_sections(self, edition: str, language: str) -> list[str]:
        """The split sections of one edition and language, in order."""
        seen: list[str] = []
        for rule in self.graph.rules(edition, language):
            section = rule.number.split(".", 1)[0]
            if (not seen or seen[-1] != section) and self.is_split(edition, language, section):
                seen.append(section)
        return seen
