"""The cross-referenced rule graph over every edition and language of a corpus.

Owns lookup, hierarchy (parent, children, previous, next), reference resolution inside
the citing rule's own edition, backlinks and translations. Building it never parses:
it takes `Document`s (see `judge.corpus.loader`).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from operator import gt

from judge.corpus.catalogue import Catalogue, RuleKey
from judge.corpus.documents import Document, Edition, GlossaryEntry, Plain, Reference, Rule
from judge.corpus.numbers import parent_number, sort_key
from judge.errors import NotFound, UnknownEdition


@dataclass(frozen=True, slots=True, kw_only=True)
class ResolvedReference:
    """A reference and what it points to in the citing rule's edition (None: absent)."""

    reference: Reference
    target: Rule | None

    @property
    def resolved(self) -> bool:
        return self.target is not None


def key(rule: Rule) -> RuleKey:
    return (rule.edition, rule.language, rule.number)


def _sort_by_number(rules: list[Rule]) -> None:
    """Sort rules in number order, in place and stably. A text's rules nearly always come in
    that order: the keys are computed once (one call each), and then mostly no sort is needed."""
    keys = list(map(sort_key, [rule.number for rule in rules]))
    if any(map(gt, keys, keys[1:])):
        rules[:] = [rules[i] for i in sorted(range(len(rules)), key=keys.__getitem__)]


def find_edition(editions: tuple[Edition, ...], edition_id: str) -> Edition:
    for edition in editions:
        if edition.id == edition_id:
            return edition
    raise UnknownEdition(edition_id, tuple(e.id for e in editions))


def newest_edition(editions: tuple[Edition, ...]) -> str:
    """The default edition (of a situation or a search without one): the one that says
    `default = true`, else the latest release of the embedded ones (an edition from a user's
    configuration never becomes the default by its date); manifest order breaks ties and
    undated editions."""
    ids = [e.id for e in editions]
    chosen = ([e for e in editions if e.default] or [e for e in editions if not e.from_config]
              or list(editions))
    return sorted(chosen, key=lambda e: (e.released or "", ids.index(e.id)))[-1].id


class RuleGraph:
    """Rules of several editions, each in one or more languages, cross-referenced."""

    def __init__(self, editions: tuple[Edition, ...], documents: tuple[Document, ...], *,
                 knowledge_base: str | None = None) -> None:
        from judge.corpus.config import embedded_knowledge_base

        self.editions = editions
        # Where this graph's caches live (concordances, doubts, the search export): its
        # configuration's knowledge base, the embedded corpus's when none is given.
        self.knowledge_base = knowledge_base or embedded_knowledge_base()
        self._edition_ids = tuple(e.id for e in editions)  # asked by every check of a situation
        self.documents = documents
        self._catalogue: Catalogue | None = None
        self._languages = {e.id: e.languages for e in editions}
        by_key: dict[RuleKey, Rule] = {}
        self._by_key = by_key
        self._duplicates: list[Rule] = []
        ordered: dict[tuple[str, str], list[Rule]] = {}
        self._ordered = ordered
        for doc in documents:
            same: list[Rule] = []
            edition = language = None
            for rule in doc.rules:
                k = (rule.edition, rule.language, rule.number)
                if k in by_key:
                    self._duplicates.append(rule)
                    continue
                by_key[k] = rule
                if rule.edition != edition or rule.language != language:  # a document's rules share them
                    edition, language = rule.edition, rule.language
                    same = ordered.setdefault((edition, language), [])
                same.append(rule)
        position: dict[RuleKey, int] = {}
        children: dict[RuleKey, list[Rule]] = defaultdict(list)
        self._position = position
        self._children = children
        for (edition, language), rules in ordered.items():
            _sort_by_number(rules)
            for i, rule in enumerate(rules):
                number = rule.number
                position[(edition, language, number)] = i
                parent = parent_number(number)
                while parent is not None and (edition, language, parent) not in by_key:
                    parent = parent_number(parent)
                if parent is not None:
                    children[(edition, language, parent)].append(rule)
        self._outgoing: dict[RuleKey, tuple[ResolvedReference, ...]] = {}
        self._backlinks: dict[RuleKey, list[Rule]] = defaultdict(list)
        for k, rule in by_key.items():
            segments = rule.segments
            if not rule.examples and len(segments) < 2 and (not segments or type(segments[0]) is Plain):
                continue  # the common case, without building the (empty) reference list
            refs = rule.references
            if not refs:
                continue
            resolved = tuple(
                ResolvedReference(reference=ref, target=self.resolve_in(rule.edition, rule.language, ref.number))
                for ref in refs
            )
            self._outgoing[k] = resolved
            seen: set[RuleKey] = set()
            for item in resolved:
                target = item.target
                if target is not None:
                    target_key = (target.edition, target.language, target.number)
                    if target_key not in seen:
                        seen.add(target_key)
                        self._backlinks[target_key].append(rule)

    # ------------------------------------------------------------------ editions
    @property
    def edition_ids(self) -> tuple[str, ...]:
        return self._edition_ids

    @property
    def newest_edition(self) -> str:
        return newest_edition(self.editions)

    def edition(self, edition_id: str) -> Edition:
        return find_edition(self.editions, edition_id)

    def primary_language(self, edition_id: str) -> str:
        return self.edition(edition_id).languages[0]

    @property
    def catalogue(self) -> Catalogue:
        """Editions and numbers only, as the rule store keeps them (what `select` reads)."""
        if self._catalogue is None:
            self._catalogue = Catalogue.of(self)
        return self._catalogue

    # ------------------------------------------------------------------ lookup
    def at(self, key: RuleKey) -> Rule:
        """The rule with this (edition, language, number) key, which must exist."""
        return self._by_key[key]

    def get(self, edition: str, number: str, language: str | None = None) -> Rule | None:
        lang = language or self.primary_language(edition)
        return self._by_key.get((edition, lang, number))

    def require(self, edition: str, number: str, language: str | None = None) -> Rule:
        rule = self.get(edition, number, language)
        if rule is None:
            raise NotFound(f"règle {number} absente de l'édition {edition}")
        return rule

    def lookup(self, number: str, edition: str | None = None, language: str | None = None) -> tuple[Rule, ...]:
        """The rule with this number in each edition that has it: in `language`, or else in
        the edition's first language that has it (French first, then English)."""
        editions = (self.edition(edition),) if edition else self.editions
        out: list[Rule] = []
        for e in editions:
            for lang in (language,) if language else e.languages:
                rule = self._by_key.get((e.id, lang, number))
                if rule is not None:
                    out.append(rule)
                    break
        return tuple(out)

    def numbers(self, edition: str) -> frozenset[str]:
        """The rule numbers of an edition, in any of its languages."""
        return frozenset(
            rule.number for language in self.edition(edition).languages for rule in self.rules(edition, language)
        )

    def rules(self, edition: str | None = None, language: str | None = None) -> tuple[Rule, ...]:
        out: list[Rule] = []
        for e in self.editions:
            if edition is not None and e.id != edition:
                continue
            for lang in e.languages:
                if language is None and edition is not None and lang != e.languages[0]:
                    continue
                if language is not None and lang != language:
                    continue
                out.extend(self._ordered.get((e.id, lang), ()))
        return tuple(out)

    def all_rules(self) -> tuple[Rule, ...]:
        return tuple(r for rules in self._ordered.values() for r in rules)

    def duplicates(self) -> tuple[Rule, ...]:
        return tuple(self._duplicates)

    def glossary(self, edition: str, language: str | None = None) -> tuple[GlossaryEntry, ...]:
        lang = language or self.primary_language(edition)
        return tuple(
            entry
            for doc in self.documents
            if doc.edition == edition and doc.language == lang
            for entry in doc.glossary
        )

    # ------------------------------------------------------------------ hierarchy
    def _parent_key(self, rule: Rule) -> RuleKey | None:
        number = parent_number(rule.number)
        while number is not None:
            k = (rule.edition, rule.language, number)
            if k in self._by_key:
                return k
            number = parent_number(number)
        return None

    def parent(self, rule: Rule) -> Rule | None:
        k = self._parent_key(rule)
        return self._by_key[k] if k else None

    def ancestors(self, rule: Rule) -> tuple[Rule, ...]:
        """Parent, grandparent … up to the section heading."""
        out: list[Rule] = []
        parent = self.parent(rule)
        while parent is not None:
            out.append(parent)
            parent = self.parent(parent)
        return tuple(out)

    def children(self, rule: Rule) -> tuple[Rule, ...]:
        return tuple(self._children.get(key(rule), ()))

    def descendants(self, rule: Rule) -> tuple[Rule, ...]:
        out: list[Rule] = []
        for child in self.children(rule):
            out.append(child)
            out.extend(self.descendants(child))
        return tuple(out)

    def previous(self, rule: Rule) -> Rule | None:
        i = self._position[key(rule)]
        return self._ordered[(rule.edition, rule.language)][i - 1] if i > 0 else None

    def next(self, rule: Rule) -> Rule | None:
        rules = self._ordered[(rule.edition, rule.language)]
        i = self._position[key(rule)]
        return rules[i + 1] if i + 1 < len(rules) else None

    # ------------------------------------------------------------------ references
    def _resolve(self, rule: Rule, number: str) -> Rule | None:
        return self.resolve_in(rule.edition, rule.language, number)

    def resolve_in(self, edition: str, language: str, number: str) -> Rule | None:
        """A cited number inside one edition only: `language` first, then another language of it."""
        same = self._by_key.get((edition, language, number))
        if same is not None:
            return same
        languages = self._languages.get(edition)
        for lang in languages if languages is not None else self.edition(edition).languages:
            other = self._by_key.get((edition, lang, number))
            if other is not None:
                return other
        return None

    def references(self, rule: Rule) -> tuple[ResolvedReference, ...]:
        return self._outgoing.get(key(rule), ())

    def resolve(self, rule: Rule, reference: Reference) -> Rule | None:
        return self._resolve(rule, reference.number)

    def backlinks(self, rule: Rule) -> tuple[Rule, ...]:
        return tuple(self._backlinks.get(key(rule), ()))

    def translations(self, rule: Rule) -> tuple[Rule, ...]:
        """The same number in the other languages of the same edition."""
        return tuple(
            other
            for lang in self.edition(rule.edition).languages
            if lang != rule.language
            and (other := self._by_key.get((rule.edition, lang, rule.number))) is not None
        )

    def removed_in(self, rule: Rule) -> tuple[Edition, ...]:
        """Later editions whose manifest says they removed this rule."""
        tag = f"{rule.edition}:{rule.number}"
        return tuple(e for e in self.editions if tag in e.removed)

    def prefix(self, edition: str, number: str, language: str | None = None) -> tuple[Rule, ...]:
        """A rule with its sub-rules (`308.2` -> 308.2, 308.2a …)."""
        rule = self.get(edition, number, language)
        if rule is None:
            return ()
        return (rule, *self.descendants(rule))
