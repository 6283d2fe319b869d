"""Doubtful citations: a citation whose own words do not name the rule its number points to.

A citation's words are its quoted title (`212.6 « Terrains »`) or, for a parenthesised
citation, the term right before it (`la double initiative (voir règle 502.25)`). They agree
with the cited rule when they name it in either language of the release: the same words
(case, accents, plurals and small words aside) as its heading, or a name of the same notion
in the FR↔EN glossary (`rules/glossary-fr-en.toml`: « terrain » = "land"). When they do
not, and another rule of the release is named by those words, the citation is doubtful and
that rule is the likely intended one (306.1's « double initiative » → 502.25 is Fear in the
English 2004 text; 502.28 Double Strike is likely). Without a likely rule nothing is said:
a title we cannot translate is not evidence of a mistake.

Finding them needs every heading of a release and the FR↔EN glossary, so the table of the
whole corpus is computed once and cached on disk, keyed by the corpus (its texts and
this code, `judge.corpus.loader.corpus_key`) and the glossary's bytes: `judge rule` reads it.
"""

from __future__ import annotations

import re
import weakref
from collections import defaultdict
from dataclasses import dataclass

from judge.cache import digest, from_json, read_part, to_json, write_kb
from judge.corpus.documents import Plain, Reference, Rule
from judge.corpus.graph import RuleGraph
from judge.corpus.graph import key as rule_key
from judge.corpus.lexicon import GLOSSARY_NAME, glossary
from judge.corpus.loader import corpus_key
from judge.corpus.names import SMALL_WORDS, Key, name_key
from judge.corpus.numbers import sort_key
from judge.normalize import fold
from judge.resources import rules_dir

_WORD = re.compile(r"[\w'’-]+")
_CITE_BEFORE = re.compile(r"\(\s*(?:voir|cf\.?|see)\s+(?:la\s+)?(?:règles?|rules?)?\s*", re.IGNORECASE)


@dataclass(frozen=True, slots=True, kw_only=True)
class Doubt:
    """A citation whose words name another rule than the one its number points to."""

    citing: Rule
    reference: Reference
    words: str  # the citation's own words, as written
    cited: tuple[Rule, ...]  # the cited number in each language of the release
    likely: Rule  # the rule those words name

    @property
    def cited_names(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(r.heading for r in self.cited if r.heading))

    @property
    def note(self) -> str:
        """What to show next to the link: why it is doubtful and the likely rule."""
        names = " / ".join(f"« {n} »" for n in self.cited_names)
        likely = f"{self.likely.number} « {self.likely.heading} »" if self.likely.heading else self.likely.number
        return (f"citation douteuse : « {self.words} » ne désigne pas {self.reference.number} ({names}) ; "
                f"règle probable : {likely}")

    @property
    def message(self) -> str:
        names = " / ".join(f"« {n} »" for n in self.cited_names)
        likely = f"{self.likely.number} ({self.likely.heading})" if self.likely.heading else self.likely.number
        return (f"citation douteuse : {self.citing.number} cite {self.reference.number} pour "
                f"« {self.words} », mais {self.reference.number} est {names} ; règle probable : {likely}")


def cited_term(before: str) -> str | None:
    """The term a parenthesised citation explains: `la double initiative (voir` -> `double initiative`."""
    head = before.rstrip()
    if not head.endswith("("):
        return None
    words = _WORD.findall(fold(head[:-1]))[-4:]
    words = [w.split("'")[-1] for w in words]
    while words and words[0] in SMALL_WORDS:
        words.pop(0)
    kept = [w for w in words if w not in SMALL_WORDS]
    # Keep the noun phrase right before the parenthesis: at most two content words.
    tail: list[str] = []
    for word in reversed(words):
        if word in SMALL_WORDS:
            break
        tail.insert(0, word)
    term = " ".join(tail[-2:] if tail else kept[-2:])
    return term or None


def citation_words(segments: tuple[object, ...], index: int) -> str | None:
    """The words of the citation at `segments[index]`: its quoted title, else the term a
    parenthesised `(voir règle N)` stands for, else None."""
    ref = segments[index]
    assert isinstance(ref, Reference)
    if ref.title:
        return ref.title
    previous = segments[index - 1] if index >= 1 else None
    if isinstance(previous, Plain):
        cut = previous.text.rfind("(")
        if cut >= 0 and _CITE_BEFORE.fullmatch(previous.text[cut:]):
            term = cited_term(previous.text[: cut + 1])
            # One word before a parenthesis ("the stack (see rule 115)") is too often just
            # the end of the sentence; a two-word term ("double initiative") is a name.
            return term if term and len(name_key(term)) >= 2 else None
    return None


@dataclass(frozen=True, slots=True, kw_only=True)
class _Names:
    """One edition's rule headings by name key, and the glossary notions of each name key."""

    by_key: dict[Key, tuple[Rule, ...]]
    notions: dict[Key, frozenset[int]]
    by_notion: dict[int, tuple[Rule, ...]]


def _glossary_notions() -> dict[Key, frozenset[int]]:
    out: dict[Key, set[int]] = defaultdict(set)
    for i, term in enumerate(glossary()):
        for name in term.names():
            key = name_key(name)
            if key:
                out[key].add(i)
    return {k: frozenset(v) for k, v in out.items()}


_cache: weakref.WeakKeyDictionary[RuleGraph, dict[str, _Names]] = weakref.WeakKeyDictionary()


def _names(graph: RuleGraph, edition: str) -> _Names:
    per_graph = _cache.setdefault(graph, {})
    found = per_graph.get(edition)
    if found is None:
        notions = _glossary_notions()
        by_key: dict[Key, list[Rule]] = defaultdict(list)
        by_notion: dict[int, list[Rule]] = defaultdict(list)
        for language in graph.edition(edition).languages:
            for rule in graph.rules(edition, language):
                if rule.heading:
                    key = name_key(rule.heading)
                    by_key[key].append(rule)
                    for notion in notions.get(key, ()):
                        by_notion[notion].append(rule)
        found = per_graph[edition] = _Names(
            by_key={k: tuple(v) for k, v in by_key.items()}, notions=notions,
            by_notion={k: tuple(v) for k, v in by_notion.items()})
    return found


def _agrees(names: _Names, words: Key, heading: str) -> bool:
    key = name_key(heading)
    if not key or not words:
        return True  # nothing to compare: no evidence
    if key <= words or words <= key:  # "replacement effects" names "… Replacement … Effects"
        return True
    return bool(names.notions.get(words, frozenset()) & names.notions.get(key, frozenset()))


def _likely(names: _Names, words: Key, citing: Rule) -> Rule | None:
    candidates = list(names.by_key.get(words, ()))
    for notion in names.notions.get(words, ()):
        candidates.extend(names.by_notion.get(notion, ()))
    if not candidates:
        return None
    # The citing rule's own language first, then numeric order.
    return min(candidates, key=lambda r: (r.language != citing.language, sort_key(r.number)))


def _find_doubts(graph: RuleGraph, rule: Rule) -> tuple[Doubt, ...]:
    out: list[Doubt] = []
    for segments in (rule.segments, *(example.segments for example in rule.examples)):
        for i, segment in enumerate(segments):
            if not isinstance(segment, Reference) or segment.range_end:
                continue
            words = citation_words(segments, i)
            doubt = _doubt(graph, rule, segment, words) if words else None
            if doubt is not None:
                out.append(doubt)
    return tuple(out)


# (index in `rule.references`, words, likely rule's edition, language, number), per citing rule.
Table = dict[tuple[str, str, str], tuple[tuple[int, str, str, str, str], ...]]
_tables: weakref.WeakKeyDictionary[RuleGraph, Table] = weakref.WeakKeyDictionary()


def _compute_table(graph: RuleGraph) -> Table:
    table: Table = {}
    for rule in graph.all_rules():
        found = _find_doubts(graph, rule)
        if found:
            refs = rule.references
            table[rule_key(rule)] = tuple(
                (next(i for i, r in enumerate(refs) if r is d.reference), d.words,
                 d.likely.edition, d.likely.language, d.likely.number)
                for d in found
            )
    return table


def _table(graph: RuleGraph) -> Table:
    table = _tables.get(graph)
    if table is None:
        try:
            seed = (rules_dir() / GLOSSARY_NAME).read_bytes()
        except OSError:
            seed = b""
        key = str(digest(corpus_key(graph.editions).encode() + b"\0" + seed).hexdigest())
        path = graph.knowledge_base
        found = read_part(path, "doubts")
        cached = None
        if found is not None and found[0] == key:
            try:
                cached = dict(from_json(found[2], ()))
            except (ValueError, TypeError):
                cached = None
        if cached is not None:
            table = cached
        else:
            table = _compute_table(graph)
            write_kb(path, [("doubts", "", key, (), to_json(list(table.items())))])
        _tables[graph] = table
    return table


def rule_doubts(graph: RuleGraph, rule: Rule) -> tuple[Doubt, ...]:
    """The doubtful citations of one rule (text and examples), in reading order."""
    entries = _table(graph).get(rule_key(rule), ())
    if not entries:
        return ()
    refs = rule.references
    out = []
    for index, words, edition, language, number in entries:
        likely = graph.get(edition, number, language)
        ref = refs[index]
        cited = tuple(
            found for lang in graph.edition(rule.edition).languages
            if (found := graph.get(rule.edition, ref.number, lang)) is not None
        )
        if likely is not None:
            out.append(Doubt(citing=rule, reference=ref, words=words, cited=cited, likely=likely))
    return tuple(out)


def _doubt(graph: RuleGraph, rule: Rule, ref: Reference, words: str) -> Doubt | None:
    cited = tuple(
        found for language in graph.edition(rule.edition).languages
        if (found := graph.get(rule.edition, ref.number, language)) is not None
    )
    headings = [r.heading for r in cited if r.heading]
    if not headings:
        return None
    names = _names(graph, rule.edition)
    key = name_key(words)
    if any(_agrees(names, key, heading) for heading in headings):
        return None
    likely = _likely(names, key, rule)
    if likely is None or likely.number == ref.number:
        return None
    return Doubt(citing=rule, reference=ref, words=words, cited=cited, likely=likely)


def doubts(graph: RuleGraph, edition: str, language: str | None = None) -> tuple[Doubt, ...]:
    """Every doubtful citation of an edition (one language, or all of them)."""
    languages = (language,) if language else graph.edition(edition).languages
    return tuple(d for lang in languages for rule in graph.rules(edition, lang) for d in rule_doubts(graph, rule))
