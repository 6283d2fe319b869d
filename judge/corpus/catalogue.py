"""The catalogue of a corpus: its editions and, in each language of each, the rule numbers in
order with their titles and sub-rules.

All that choosing rules by number needs (`judge.corpus.selection`) and all that the situation
checks need of a corpus (`judge.checks.context.RuleSource`). Built from a `RuleGraph`, or read
back as plain tuples and strings from its two tables of the knowledge base (`catalogue_tables`,
`read_catalogue`: `store_editions`, `store_languages`, written with the rule store of
`judge.checks.store`): a warm `judge rule` or `judge check` creates no rule to get it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from judge.errors import UnknownEdition

if TYPE_CHECKING:
    from judge.cache import KnowledgeBase, Table
    from judge.corpus.graph import RuleGraph

RuleKey = tuple[str, str, str]  # (edition, language, number)
# (id, label, released, languages, removed, removed_by, game): see `EditionFacts`.
EditionData = tuple[str, str, "str | None", tuple[str, ...], tuple[str, ...], str, "str | None"]
# One language of one edition: its numbers in order, and for each (same positions) its title
# and its sub-rules. Flat tuples, no dict keyed by rule: the store's head loads in a blink.
Language = tuple[tuple[str, str], tuple[str, ...], tuple["str | None", ...], tuple[tuple[str, ...], ...]]
CatalogueData = tuple[tuple[EditionData, ...], str, tuple[Language, ...]]


@dataclass(frozen=True, slots=True)
class EditionFacts:
    """What an edition's manifest entry says, apart from its files: id, label, release date,
    languages, the rules it removed (`2004:300.3`) and by which change, its game model."""

    id: str
    label: str
    released: str | None
    languages: tuple[str, ...]
    removed: tuple[str, ...]
    removed_by: str
    game: str | None


@dataclass(frozen=True, slots=True)
class Catalogue:
    """The editions and rule numbers of a corpus (no rule text), from its `data` (what the
    rule store keeps); the positions and number sets are computed on first use."""

    data: CatalogueData
    editions: tuple[EditionFacts, ...] = field(init=False, repr=False, compare=False)
    edition_ids: tuple[str, ...] = field(init=False, repr=False, compare=False)
    newest_edition: str = field(init=False, repr=False, compare=False)
    _languages: dict[tuple[str, str], Language] = field(init=False, repr=False, compare=False)
    _positions: dict[tuple[str, str], dict[str, int]] = field(
        init=False, repr=False, compare=False, default_factory=dict)
    _numbers: dict[str, frozenset[str]] = field(init=False, repr=False, compare=False, default_factory=dict)

    def __post_init__(self) -> None:
        editions, newest_edition, languages = self.data
        # derived from `data` once, here: the only writes to this frozen record
        object.__setattr__(self, "editions", tuple(EditionFacts(*e) for e in editions))
        object.__setattr__(self, "edition_ids", tuple(e[0] for e in editions))
        object.__setattr__(self, "newest_edition", newest_edition)
        object.__setattr__(self, "_languages", {entry[0]: entry for entry in languages})

    @classmethod
    def of(cls, graph: RuleGraph) -> Catalogue:
        editions = tuple(
            (e.id, e.label, e.released, e.languages, e.removed, e.removed_by, e.game) for e in graph.editions
        )
        languages = []
        for e in graph.editions:
            for language in e.languages:
                rules = graph.rules(e.id, language)
                languages.append((
                    (e.id, language),
                    tuple(r.number for r in rules),
                    tuple(r.title for r in rules),
                    tuple(tuple(d.number for d in graph.descendants(r)) for r in rules),
                ))
        return cls((editions, graph.newest_edition, tuple(languages)))

    # ------------------------------------------------------------------ editions
    def edition(self, edition_id: str) -> EditionFacts:
        for edition in self.editions:
            if edition.id == edition_id:
                return edition
        raise UnknownEdition(edition_id, self.edition_ids)

    def primary_language(self, edition_id: str) -> str:
        return self.edition(edition_id).languages[0]

    def removed_in(self, edition_id: str, number: str) -> tuple[EditionFacts, ...]:
        """Editions whose manifest says they removed this rule of `edition_id`."""
        tag = f"{edition_id}:{number}"
        return tuple(e for e in self.editions if tag in e.removed)

    # ------------------------------------------------------------------ numbers
    def ordered(self, edition_id: str, language: str) -> tuple[str, ...]:
        """The numbers of one language of an edition, in numeric order."""
        entry = self._languages.get((edition_id, language))
        return entry[1] if entry else ()

    def position(self, key: RuleKey) -> int | None:
        """Where the rule stands in the order of its edition and language (None: absent)."""
        edition, language, number = key
        found = self._positions.get((edition, language))
        if found is None:
            numbers = self.ordered(edition, language)
            found = self._positions[(edition, language)] = dict(zip(numbers, range(len(numbers)), strict=True))
        return found.get(number)

    def numbers(self, edition_id: str) -> frozenset[str]:
        """The rule numbers of an edition, in any of its languages."""
        found = self._numbers.get(edition_id)
        if found is None:
            languages = self.edition(edition_id).languages
            found = self._numbers[edition_id] = frozenset(
                n for language in languages for n in self.ordered(edition_id, language))
        return found

    def has(self, key: RuleKey) -> bool:
        return self.position(key) is not None

    def title(self, key: RuleKey) -> str | None:
        at = self.position(key)
        return None if at is None else self._languages[key[:2]][2][at]

    def lookup(self, number: str, edition_id: str, language: str | None = None) -> RuleKey | None:
        """The rule with this number in an edition: in `language`, or else in the edition's
        first language that has it (French first, then English)."""
        for lang in (language,) if language else self.edition(edition_id).languages:
            if self.has((edition_id, lang, number)):
                return (edition_id, lang, number)
        return None

    def prefix(self, key: RuleKey) -> tuple[RuleKey, ...]:
        """A rule and its sub-rules, in order (`308.2` -> 308.2, 308.2a …)."""
        at = self.position(key)
        if at is None:
            return ()
        edition, language, _ = key
        return (key, *((edition, language, n) for n in self._languages[(edition, language)][3][at]))


# ---------------------------------------------------------------------- its tables
CATALOGUE_TABLES = {
    "store_editions": "CREATE TABLE store_editions (position INTEGER PRIMARY KEY, id TEXT NOT NULL,"
                      " label TEXT NOT NULL, released TEXT, languages TEXT NOT NULL, removed TEXT NOT NULL,"
                      " removed_by TEXT NOT NULL, game TEXT)",
    "store_languages": "CREATE TABLE store_languages (position INTEGER PRIMARY KEY, edition TEXT NOT NULL,"
                       " language TEXT NOT NULL, numbers TEXT NOT NULL, titles TEXT NOT NULL,"
                       " subrules TEXT NOT NULL)",
}
_NO_TITLE = "\x00"  # a title line that stands for None


def catalogue_tables(data: CatalogueData) -> dict[str, Table] | None:
    """The catalogue's two tables of the knowledge base (one row per edition, one per language
    of an edition: its numbers, titles and sub-rules one a line), or None when a number or a
    title cannot be written one a line."""
    editions, _, languages = data
    lines = [n for _, numbers, titles, _ in languages for n in (*numbers, *(t or "" for t in titles))]
    if any("\n" in line or line == _NO_TITLE for line in lines) or any(
            " " in n for _, numbers, _, _ in languages for n in numbers):
        return None
    return {
        "store_editions": ((CATALOGUE_TABLES["store_editions"],), [
            (n, i, label, released, " ".join(langs), " ".join(removed), removed_by, game)
            for n, (i, label, released, langs, removed, removed_by, game) in enumerate(editions)]),
        "store_languages": ((CATALOGUE_TABLES["store_languages"],), [
            (n, edition, language, "\n".join(numbers), "\n".join(_NO_TITLE if t is None else t for t in titles),
             "\n".join(" ".join(s) for s in subrules))
            for n, ((edition, language), numbers, titles, subrules) in enumerate(languages)]),
    }


def read_catalogue(kb: KnowledgeBase, newest: str) -> CatalogueData | None:
    """The catalogue of the knowledge base's tables (`newest`: its newest edition), or None when
    they do not hold one."""
    editions = kb.rows("SELECT id, label, released, languages, removed, removed_by, game FROM store_editions"
                       " ORDER BY position")
    languages = kb.rows("SELECT edition, language, numbers, titles, subrules FROM store_languages"
                        " ORDER BY position")
    out = []
    for edition, language, numbers, titles, subrules in languages:
        listed = tuple(numbers.split("\n")) if numbers else ()
        named = tuple(None if t == _NO_TITLE else t for t in titles.split("\n")) if numbers else ()
        under = tuple(tuple(line.split()) for line in subrules.split("\n")) if numbers else ()
        if not len(listed) == len(named) == len(under):
            return None
        out.append(((edition, language), listed, named, under))
    facts = tuple((i, label, released, tuple(langs.split()), tuple(removed.split()), removed_by, game)
                  for i, label, released, langs, removed, removed_by, game in editions)
    return facts, newest, tuple(out)
