"""The concordance of two editions: which rule became which, and how (same, edited, split …).

Owns the comparison text of a rule (references replaced by a placeholder, the older wording
folded into the newer one), the per-pair data file `rules/concordance/<old>-<new>.toml`
(terminology folds and reviewed overrides, each with its reason), the classification of
every rule and pair, and the on-disk cache (keyed by the texts, the data file and the code).
The alignment itself is `judge.corpus.align`, imported only when the cache is cold.

Editions are compared in release order; asking for newer -> older reverses the result.
The English texts are compared when both editions have one (the French follows by number:
a release's languages share their numbering), else a language common to both.
"""

from __future__ import annotations

import re
import weakref
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from judge.cache import cache_dir, code_digest, read_pickle, write_pickle
from judge.corpus.documents import Reference, Rule
from judge.corpus.graph import RuleGraph
from judge.corpus.numbers import sort_key
from judge.errors import JudgeError, ManifestError
from judge.resources import rules_dir

Change = Literal["same", "renumbered", "edited", "split", "merged", "removed", "added"]
CHANGES: tuple[Change, ...] = ("same", "renumbered", "edited", "split", "merged", "removed", "added")
CACHE_FORMAT = 2
PLACEHOLDER = "§"
_WORD = re.compile(r"[a-z0-9§]+(?:['-][a-z0-9]+)*")
_SPACES = re.compile(r"\s+")
_TABLE_KEYS = {"from", "to", "fold", "override"}


@dataclass(frozen=True, slots=True, kw_only=True)
class Fold:
    """Older wording rewritten into the newer one before comparing (never shown)."""

    old: str
    new: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Override:
    """A reviewed correction: the counterparts of an old rule (none: removed), or a new rule added."""

    source: str | None
    targets: tuple[str, ...]
    reason: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Table:
    """The data file of one pair of editions (empty when there is none)."""

    path: str | None
    folds: tuple[Fold, ...] = ()
    overrides: tuple[Override, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Pair:
    """One rule of the older edition and one of its counterparts in the newer one."""

    source: str
    target: str
    change: Change
    similarity: float
    method: str  # exact, similar, context, passage (see judge.corpus.align) or override
    main: bool  # the source's main counterpart (its first pair)


@dataclass(frozen=True, slots=True, kw_only=True)
class Concordance:
    """Every rule of `source` (edition id) aligned with `target`; pairs sorted by source rule."""

    source: str
    target: str
    language: str
    pairs: tuple[Pair, ...]
    removed: tuple[str, ...]
    added: tuple[str, ...]
    reasons: tuple[tuple[str, str, str], ...] = ()  # (edition, number, why) of each override
    _by_source: dict[str, tuple[Pair, ...]] = field(init=False, repr=False, compare=False)
    _by_target: dict[str, tuple[Pair, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_source: dict[str, list[Pair]] = {}
        by_target: dict[str, list[Pair]] = {}
        for pair in self.pairs:
            by_source.setdefault(pair.source, []).append(pair)
            by_target.setdefault(pair.target, []).append(pair)
        object.__setattr__(self, "_by_source", {n: tuple(found) for n, found in by_source.items()})
        object.__setattr__(self, "_by_target", {
            n: tuple(sorted(found, key=lambda p: (not p.main, -p.similarity))) for n, found in by_target.items()})

    def counterparts(self, number: str) -> tuple[Pair, ...]:
        """The pairs of an older rule, main counterpart first."""
        return self._by_source.get(number, ())

    def sources(self, number: str) -> tuple[Pair, ...]:
        """The pairs of a newer rule, the one covering most of it first."""
        return self._by_target.get(number, ())

    def change_of_source(self, number: str) -> Change:
        pairs = self.counterparts(number)
        return pairs[0].change if pairs else "removed"

    def change_of_target(self, number: str) -> Change:
        pairs = self.sources(number)
        if not pairs:
            return "added"
        if len(pairs) > 1:
            return "merged"
        return pairs[0].change

    def reason(self, edition: str, number: str) -> str:
        """Why a reviewed override decided this rule's fate ("" when the algorithm did)."""
        return next((why for e, n, why in self.reasons if e == edition and n == number), "")

    def reversed(self) -> Concordance:
        """The same concordance read from the newer edition to the older one."""
        flipped: list[Pair] = []
        targets = sorted({p.target for p in self.pairs}, key=sort_key)
        for target in targets:
            sources = self.sources(target)
            for k, pair in enumerate(sources):
                change = pair.change
                if len(sources) > 1:
                    change = "split"
                elif change in ("split", "merged"):
                    change = "merged"
                flipped.append(replace(pair, source=pair.target, target=pair.source, change=change,
                                       main=k == 0))
        return Concordance(source=self.target, target=self.source, language=self.language,
                           pairs=tuple(flipped), removed=self.added, added=self.removed,
                           reasons=self.reasons)


# ---------------------------------------------------------------------- the data file
def table_path(source: str, target: str) -> Path:
    return rules_dir() / "concordance" / f"{source}-{target}.toml"


def load_table(source: str, target: str, path: Path | None = None) -> Table:
    """Folds and overrides for `source` -> `target` (the embedded file unless `path`); none if absent."""
    path = path or table_path(source, target)
    if not path.is_file():
        return Table(path=None)
    import tomllib

    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ManifestError(str(path), "", f"table de concordance illisible : {exc}") from None
    unknown = sorted(set(data) - _TABLE_KEYS)
    if unknown:
        raise ManifestError(str(path), unknown[0], "clé inconnue")
    if data.get("from") != source or data.get("to") != target:
        raise ManifestError(str(path), "from", f"la table doit dire from = « {source} », to = « {target} »")
    folds = tuple(_fold(raw, path, f"fold[{i}]") for i, raw in enumerate(_tables(data, "fold", path)))
    overrides = tuple(
        _override(raw, path, f"override[{i}]") for i, raw in enumerate(_tables(data, "override", path))
    )
    return Table(path=str(path), folds=folds, overrides=overrides)


def _tables(data: dict[str, Any], key: str, path: Path) -> list[dict[str, Any]]:
    raw = data.get(key, [])
    if not isinstance(raw, list) or not all(isinstance(t, dict) for t in raw):
        raise ManifestError(str(path), key, "une liste de tables est attendue")
    return raw


def _text_field(raw: dict[str, Any], key: str, path: Path, field: str) -> str:
    value = raw.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ManifestError(str(path), f"{field}.{key}", "une chaîne non vide est attendue")
    return value


def _fold(raw: dict[str, Any], path: Path, field: str) -> Fold:
    unknown = sorted(set(raw) - {"old", "new"})
    if unknown:
        raise ManifestError(str(path), f"{field}.{unknown[0]}", "clé inconnue")
    return Fold(old=_text_field(raw, "old", path, field).lower(), new=_text_field(raw, "new", path, field).lower())


def _override(raw: dict[str, Any], path: Path, field: str) -> Override:
    unknown = sorted(set(raw) - {"from", "to", "change", "reason"})
    if unknown:
        raise ManifestError(str(path), f"{field}.{unknown[0]}", "clé inconnue")
    reason = _text_field(raw, "reason", path, field)
    change = raw.get("change")
    if "from" in raw:
        source = _text_field(raw, "from", path, field)
        if change == "removed" and "to" not in raw:
            return Override(source=source, targets=(), reason=reason)
        targets = raw.get("to")
        if change is not None or not isinstance(targets, list) or not targets or not all(
                isinstance(t, str) and t for t in targets):
            raise ManifestError(str(path), f"{field}.to",
                                "attendu : to = [\"…\", …] (contreparties) ou change = \"removed\"")
        return Override(source=source, targets=tuple(targets), reason=reason)
    if change == "added" and isinstance(raw.get("to"), str):
        return Override(source=None, targets=(raw["to"],), reason=reason)
    raise ManifestError(str(path), field, "attendu : from = \"…\", ou to = \"…\" avec change = \"added\"")


# ---------------------------------------------------------------------- comparison text
class Folder:
    """The folds of a table compiled once: whole words, longest phrase first."""

    def __init__(self, folds: tuple[Fold, ...]) -> None:
        ordered = sorted(folds, key=lambda f: -len(f.old))
        self._new = {f.old: f.new for f in ordered}
        self._pattern = (re.compile(r"(?<![\w-])(" + "|".join(re.escape(f.old) for f in ordered) + r")(?![\w-])")
                         if ordered else None)

    def __call__(self, text: str) -> str:
        if self._pattern is None:
            return text
        return self._pattern.sub(lambda m: self._new[m.group(1)], text)


NO_FOLDS = Folder(())


def comparison_words(rule: Rule, folder: Folder = NO_FOLDS) -> tuple[str, ...]:
    """Lowercased words of the title and text, each reference as one placeholder, folds applied."""
    text = " ".join((rule.title or "", _with_placeholders(rule))).lower().replace("’", "'")
    return tuple(_WORD.findall(folder(text)))


def _with_placeholders(rule: Rule) -> str:
    return "".join(PLACEHOLDER if isinstance(s, Reference) else s.text for s in rule.segments)


def wording(rule: Rule) -> str:
    """The text as compared for `same`: references as placeholders, spaces collapsed."""
    return _SPACES.sub(" ", " ".join((rule.title or "", _with_placeholders(rule)))).strip()


def is_heading(rule: Rule) -> bool:
    """A section line, or a short title-like rule (2004's `217.2 Library`)."""
    text = rule.text.strip()
    return rule.kind == "section" or (len(text.split()) <= 6 and not text.endswith((".", ":", ")", '"')))


# ---------------------------------------------------------------------- computing
class ConcordanceError(JudgeError):
    """Two editions that cannot be compared."""


def ordered(graph: RuleGraph, first: str, second: str) -> tuple[str, str]:
    """The two edition ids, older first (release date, then manifest order)."""
    ids = graph.edition_ids
    graph.edition(first)
    graph.edition(second)
    if first == second:
        raise ConcordanceError(f"deux éditions différentes sont attendues (« {first} » deux fois)")

    def when(edition_id: str) -> tuple[str, int]:
        return (graph.edition(edition_id).released or "", ids.index(edition_id))

    return (first, second) if when(first) <= when(second) else (second, first)


def common_language(graph: RuleGraph, source: str, target: str) -> str:
    shared = [lang for lang in graph.edition(source).languages if lang in graph.edition(target).languages]
    if not shared:
        raise ConcordanceError(f"les éditions {source} et {target} n'ont aucune langue en commun")
    return "en" if "en" in shared else shared[0]


_loaded: weakref.WeakKeyDictionary[RuleGraph, dict[str, Concordance]] = (
    weakref.WeakKeyDictionary())


def concordance(graph: RuleGraph, first: str, second: str, *, use_cache: bool = True) -> Concordance:
    """`first` -> `second`, computed in release order (and cached), reversed if need be.

    Kept in memory for the life of `graph` once read or computed, by cache file (whose name is
    the key: a changed text, table or code is seen).
    """
    source, target = ordered(graph, first, second)
    language = common_language(graph, source, target)
    table = load_table(source, target)
    path = cache_dir() / f"concordance-{_cache_key(graph, source, target, language, table)}.pickle"
    memo = _loaded.setdefault(graph, {})
    result = memo.get(str(path)) if use_cache else None
    if result is None:
        cached = read_pickle(path) if use_cache else None
        if isinstance(cached, Concordance):
            result = cached
        else:
            result = compute(graph, source, target, language, table)
            if use_cache:
                write_pickle(path, result)
        if use_cache:
            memo[str(path)] = result
    return result if source == first else result.reversed()


def _cache_key(graph: RuleGraph, source: str, target: str, language: str, table: Table) -> str:
    hashed = code_digest("corpus")
    hashed.update(f"concordance {CACHE_FORMAT} {source} {target} {language}\n".encode())
    for edition_id in (source, target):
        edition = graph.edition(edition_id)
        for text in edition.texts:
            if text.language == language:
                for file in text.files:
                    hashed.update(Path(file).read_bytes())
    if table.path is not None:
        hashed.update(Path(table.path).read_bytes())
    return str(hashed.hexdigest())


def compute(graph: RuleGraph, source: str, target: str, language: str, table: Table) -> Concordance:
    """Align the two editions' texts in `language`, apply the overrides, classify."""
    from judge.corpus.align import Item, align

    old_rules = graph.rules(source, language)
    new_rules = graph.rules(target, language)
    folder = Folder(table.folds)
    old = [Item(number=r.number, heading=is_heading(r), words=comparison_words(r, folder)) for r in old_rules]
    new = [Item(number=r.number, heading=is_heading(r), words=comparison_words(r)) for r in new_rules]
    links: list[Link] = [(old_rules[k.source].number, new_rules[k.target].number, k.similarity, k.method)
                         for k in align(old, new)]
    links, reasons = _apply_overrides(links, table, source, target, {r.number for r in old_rules},
                                      {r.number for r in new_rules})
    return _classify(source, target, language, folder, old_rules, new_rules, links, reasons)


Link = tuple[str, str, float, str]


def _apply_overrides(links: list[Link], table: Table, source: str, target: str, old: set[str],
                     new: set[str]) -> tuple[list[Link], tuple[tuple[str, str, str], ...]]:
    reasons: list[tuple[str, str, str]] = []
    where = table.path or ""
    for k, override in enumerate(table.overrides):
        for number, known, side in ((override.source, old, "from"),
                                    *((t, new, "to") for t in override.targets)):
            if number is not None and number not in known:
                raise ManifestError(where, f"override[{k}].{side}", f"règle {number} absente du texte comparé")
        if override.source is None:
            added = override.targets[0]
            links = [link for link in links if link[1] != added]
            reasons.append((target, added, override.reason))
            continue
        links = [link for link in links if link[0] != override.source]
        links.extend((override.source, t, -1.0, "override") for t in override.targets)
        reasons.append((source, override.source, override.reason))
    return links, tuple(reasons)


def _classify(source: str, target: str, language: str, folder: Folder,
              old_rules: tuple[Rule, ...], new_rules: tuple[Rule, ...], links: list[Link],
              reasons: tuple[tuple[str, str, str], ...]) -> Concordance:
    from judge.corpus.align import word_similarity

    old_by = {r.number: r for r in old_rules}
    new_by = {r.number: r for r in new_rules}
    targets_of: dict[str, list[Link]] = {}
    sources_of: dict[str, list[Link]] = {}
    for link in links:
        targets_of.setdefault(link[0], []).append(link)
        sources_of.setdefault(link[1], []).append(link)
    pairs: list[Pair] = []
    for number in sorted(targets_of, key=sort_key):
        own = targets_of[number]
        overridden = any(link[3] == "override" for link in own)
        if not overridden:  # main counterpart: the most similar one
            own.sort(key=lambda link: (-link[2], sort_key(link[1])))
        for k, (a, b, _score, method) in enumerate(own):
            old_rule, new_rule = old_by[a], new_by[b]
            similarity = word_similarity(comparison_words(old_rule, folder), comparison_words(new_rule))
            if len(own) > 1:
                change: Change = "split"
            elif len(sources_of[b]) > 1:
                change = "merged"
            elif wording(old_rule) == wording(new_rule):
                change = "same" if a == b else "renumbered"
            else:
                change = "edited"
            pairs.append(Pair(source=a, target=b, change=change, similarity=round(similarity, 2),
                              method=method, main=k == 0))
    removed = tuple(r.number for r in old_rules if r.number not in targets_of)
    added = tuple(r.number for r in new_rules if r.number not in sources_of)
    return Concordance(source=source, target=target, language=language, pairs=tuple(pairs),
                       removed=removed, added=added, reasons=reasons)
