"""The concordance of two editions: which rule became which, and how (same, edited, split …).

Owns the comparison text of a rule (references replaced by a placeholder, the older wording
folded into the newer one), the per-pair data file `rules/concordance/<old>-<new>.toml`
(terminology folds and reviewed overrides, each with its reason, and the `[computed]` pairs
that `judge concordance OLD NEW --write` writes from them and the texts), the classification
of every rule and pair, and the on-disk cache of concordances that have no data file (or whose
texts changed since it was written), keyed by the texts, the data file and the code.

A data file whose `[computed]` section was written from the same texts, folds and overrides
(a digest says so) is the concordance: read as it is, without numpy, scipy or rapidfuzz. Any
other pair of editions is aligned by `judge.corpus.align`, which needs the `history` extra
(`MissingMatcher` names it when it is not installed).

Editions are compared in release order; asking for newer -> older reverses the result.
The English texts are compared when both editions have one (the French follows by number:
a release's languages share their numbering), else a language common to both.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from judge.cache import code_digest, from_json, read_part, to_json, write_kb
from judge.corpus.documents import Reference, Rule
from judge.corpus.graph import RuleGraph
from judge.corpus.numbers import sort_key
from judge.errors import JudgeError, ManifestError, os_reason
from judge.resources import rules_dir

Change = Literal["same", "renumbered", "edited", "split", "merged", "removed", "added"]
CHANGES: tuple[Change, ...] = ("same", "renumbered", "edited", "split", "merged", "removed", "added")
CACHE_FORMAT = 2
PLACEHOLDER = "§"
_WORD = re.compile(r"[a-z0-9§]+(?:['-][a-z0-9]+)*")
_SPACES = re.compile(r"\s+")
_TABLE_KEYS = {"from", "to", "fold", "override", "computed"}
_COMPUTED_KEYS = {"language", "texts", "pairs"}
# The distribution's extra that installs the matcher (numpy, scipy, rapidfuzz).
MATCHER_MODULES = frozenset({"numpy", "scipy", "rapidfuzz"})


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
class Pair:
    """One rule of the older edition and one of its counterparts in the newer one."""

    source: str
    target: str
    change: Change
    similarity: float
    method: str  # exact, title, similar, family, context, passage, restated, leftover, structure (see
    # judge.corpus.align) or override
    main: bool  # the source's main counterpart (its first pair)


@dataclass(frozen=True, slots=True, kw_only=True)
class Computed:
    """The `[computed]` section of a data file: pairs in file order (a source's main counterpart
    first), the language compared, and the digest of the texts, folds and overrides they came from."""

    language: str
    texts: str
    pairs: tuple[Pair, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Table:
    """The data file of one pair of editions (empty when there is none)."""

    path: str | None
    folds: tuple[Fold, ...] = ()
    overrides: tuple[Override, ...] = ()
    computed: Computed | None = None
    preamble: str = ""  # the file's leading comment lines, kept when it is written again


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
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
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
    computed = _computed(data["computed"], path) if "computed" in data else None
    return Table(path=str(path), folds=folds, overrides=overrides, computed=computed,
                 preamble=_preamble(text))


def _preamble(text: str) -> str:
    """The comment lines the file starts with (kept when `write_table` writes it again)."""
    lines = []
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        lines.append(line)
    return "\n".join(lines)


def _computed(raw: Any, path: Path) -> Computed:
    if not isinstance(raw, dict):
        raise ManifestError(str(path), "computed", "une table est attendue")
    unknown = sorted(set(raw) - _COMPUTED_KEYS)
    if unknown:
        raise ManifestError(str(path), f"computed.{unknown[0]}", "clé inconnue")
    language = _text_field(raw, "language", path, "computed")
    texts = _text_field(raw, "texts", path, "computed")
    rows = raw.get("pairs")
    if not isinstance(rows, str):
        raise ManifestError(str(path), "computed.pairs", "un texte est attendu (une paire par ligne)")
    pairs: list[Pair] = []
    seen: set[str] = set()
    for k, line in enumerate(rows.strip("\n").split("\n") if rows.strip() else ()):
        words = line.split()
        try:
            source, target, change, similarity, method = words
            value = float(similarity)
        except ValueError:
            change, value = "", -1.0
        if not 0.0 <= value <= 1.0 or change not in CHANGES:
            raise ManifestError(str(path), f"computed.pairs, ligne {k + 1}",
                                "attendu : DE VERS CHANGEMENT SIMILARITÉ (0 à 1) MÉTHODE")
        pairs.append(Pair(source=source, target=target, change=change, similarity=value,  # type: ignore[arg-type]
                          method=method, main=source not in seen))
        seen.add(source)
    return Computed(language=language, texts=texts, pairs=tuple(pairs))


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


def generate(graph: RuleGraph, first: str, second: str) -> tuple[Path, str]:
    """The data file of two editions (release order) written again: its folds and overrides,
    and the `[computed]` pairs aligned from the texts now (needs the matcher)."""
    source, target = ordered(graph, first, second)
    language = common_language(graph, source, target)
    table = load_table(source, target)
    result = compute(graph, source, target, language, table)
    return table_path(source, target), render_table(
        table, result, texts_digest(graph, source, target, language, table))


_DEFAULT_PREAMBLE = """\
# Concordance between two editions (the French follows the compared language by number).
# fold: older wording rewritten into the newer one's before comparing (never shown).
# override: reviewed corrections, each with its reason (shown to users, in French)."""
_COMPUTED_NOTE = """\
# ---------------------------------------------------------------------- computed
# Written by `judge concordance {source} {target} --write` from the texts, the folds and the
# overrides above (never edit by hand: change a fold or an override, then run it again).
# pairs: one a line, `from to change similarity method`, each source's main counterpart
# first; the rules no pair names were removed (older edition) or added (newer one).
# `texts` is the digest of the texts, folds and overrides they came from."""


def render_table(table: Table, result: Concordance, texts: str) -> str:
    """A data file as TOML: preamble, folds, overrides, then the computed pairs (one a line)."""
    import json

    def quoted(value: str) -> str:  # a JSON string is a valid TOML basic string
        return json.dumps(value, ensure_ascii=False)

    lines = [table.preamble or _DEFAULT_PREAMBLE, "", f"from = {quoted(result.source)}",
             f"to = {quoted(result.target)}", ""]
    for fold in table.folds:
        lines += ["[[fold]]", f"old = {quoted(fold.old)}", f"new = {quoted(fold.new)}"]
    if table.overrides:
        lines += ["", "# " + "-" * 70 + " reviewed overrides"]
    for override in table.overrides:
        if override.source is None:
            lines += ["[[override]]", f"to = {quoted(override.targets[0])}", 'change = "added"']
        elif not override.targets:
            lines += ["[[override]]", f"from = {quoted(override.source)}", 'change = "removed"']
        else:
            targets = ", ".join(quoted(t) for t in override.targets)
            lines += ["[[override]]", f"from = {quoted(override.source)}", f"to = [{targets}]"]
        lines += [f"reason = {quoted(override.reason)}", ""]
    if lines[-1]:
        lines.append("")
    lines += [_COMPUTED_NOTE.format(source=result.source, target=result.target), "[computed]",
              f"language = {quoted(result.language)}", f"texts = {quoted(texts)}", "pairs = '''"]
    for pair in result.pairs:
        lines.append(f"{pair.source:<9} {pair.target:<9} {pair.change:<11} {pair.similarity:.2f}  {pair.method}")
    lines += ["'''", ""]
    return "\n".join(lines)


def write_table(path: Path, text: str) -> None:
    """Write a data file atomically (a temporary file beside it, then a rename)."""
    import os
    import tempfile

    try:
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".toml", dir=path.parent)
    except OSError as exc:
        raise JudgeError(f"impossible d'écrire dans {path.parent} : {os_reason(exc)}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except OSError as exc:
        os.unlink(tmp)
        raise JudgeError(f"impossible d'écrire {path} : {os_reason(exc)}") from None


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


_tables_read: weakref.WeakKeyDictionary[RuleGraph, dict[tuple[object, ...], tuple[Table, bool]]] = (
    weakref.WeakKeyDictionary())
_loaded: weakref.WeakKeyDictionary[RuleGraph, dict[str, Concordance]] = (
    weakref.WeakKeyDictionary())


class MissingMatcher(JudgeError):
    """A concordance to compute without the matcher installed (the `history` extra)."""

    def __init__(self, source: str, target: str) -> None:
        from judge import DISTRIBUTION

        super().__init__(
            f"calculer la concordance {source} → {target} demande l'appariement des éditions "
            f"(numpy, scipy, rapidfuzz), qui n'est pas installé : pip install '{DISTRIBUTION}[history]'")


def concordance(graph: RuleGraph, first: str, second: str, *, use_cache: bool = True) -> Concordance:
    """`first` -> `second`, in release order, reversed if need be.

    The data file's `[computed]` pairs when they were written from these texts, folds and
    overrides; else computed (and cached). Kept in memory for the life of `graph` once read
    or computed, by data file and digest, or by cache file (whose name is the key: a changed
    text, table or code is seen).
    """
    found = _concordance(graph, first, second, use_cache=use_cache, computing=True)
    assert found is not None  # computed when not at hand
    return found


def known_concordance(graph: RuleGraph, first: str, second: str) -> Concordance | None:
    """`concordance` when it is at hand without computing it (a data file's pairs, or the
    knowledge base's cache), else None."""
    return _concordance(graph, first, second, use_cache=True, computing=False)


def _concordance(graph: RuleGraph, first: str, second: str, *, use_cache: bool,
                 computing: bool) -> Concordance | None:
    source, target = ordered(graph, first, second)
    language = common_language(graph, source, target)
    table, current = _table_of(graph, source, target, language)
    memo = _loaded.setdefault(graph, {})
    shipped = table.computed
    if shipped is not None and current:
        key = f"{table.path} {shipped.texts}"
        result = memo.get(key)
        if result is None:
            result = memo[key] = from_table(graph, source, target, table, shipped)
        return result if source == first else result.reversed()
    key = _cache_key(graph, source, target, language, table)
    name = f"{source} {target}"
    result = memo.get(key) if use_cache else None
    if result is None:
        result = _cached(graph.knowledge_base, name, key) if use_cache else None
        if result is None:
            if not computing:
                return None
            from judge.progress import say

            say(f"Concordance {source} → {target} (une seule fois) : appariement des règles…")
            result = compute(graph, source, target, language, table)
            if use_cache:
                write_kb(graph.knowledge_base, [("concordance", name, key, (), to_json(result))])
        if use_cache:
            memo[key] = result
    return result if source == first else result.reversed()


def _cached(kb: str, name: str, key: str) -> Concordance | None:
    """The computed concordance `name` of the knowledge base `kb`, when made from `key`."""
    found = read_part(kb, "concordance", name)
    if found is None or found[0] != key:
        return None
    try:
        result = from_json(found[2], (Concordance, Pair))
    except ValueError:
        return None
    return result if isinstance(result, Concordance) else None


def _table_of(graph: RuleGraph, source: str, target: str, language: str) -> tuple[Table, bool]:
    """The data file of `source` -> `target` (`load_table`), and whether its `[computed]` pairs
    are those of the graph's texts in `language`: read and checked once per graph and state of
    the file (its size, time and inode), not at each of a book's hundred history pages."""
    import os

    path = table_path(source, target)
    try:
        info = os.stat(path)
        signature: tuple[int, ...] = (info.st_size, info.st_mtime_ns, info.st_ino)
    except OSError:
        signature = ()
    seen = _tables_read.setdefault(graph, {})
    key = (source, target, language, signature)
    found = seen.get(key)
    if found is None:
        table = load_table(source, target)
        shipped = table.computed
        current = (shipped is not None and shipped.language == language
                   and shipped.texts == texts_digest(graph, source, target, language, table))
        found = seen[key] = (table, current)
    return found


def texts_digest(graph: RuleGraph, source: str, target: str, language: str, table: Table) -> str:
    """What a data file's `[computed]` pairs were written from: the two editions' texts in
    `language` (their bytes), the folds and the overrides."""
    from judge.cache import digest

    hashed = digest(f"concordance {source} {target} {language}\n".encode())
    for edition_id in (source, target):
        for text in graph.edition(edition_id).texts:
            if text.language == language:
                for file in text.files:
                    data = Path(file).read_bytes()
                    hashed.update(len(data).to_bytes(8, "little") + data)
    hashed.update(repr((table.folds, table.overrides)).encode())
    return str(hashed.hexdigest())


def from_table(graph: RuleGraph, source: str, target: str, table: Table, shipped: Computed) -> Concordance:
    """The concordance a data file's `[computed]` section holds (removed and added rules are
    the texts' rules that no pair names)."""
    sources = {p.source for p in shipped.pairs}
    targets = {p.target for p in shipped.pairs}
    removed = tuple(r.number for r in graph.rules(source, shipped.language) if r.number not in sources)
    added = tuple(r.number for r in graph.rules(target, shipped.language) if r.number not in targets)
    return Concordance(source=source, target=target, language=shipped.language, pairs=shipped.pairs,
                       removed=removed, added=added, reasons=_reasons(table, source, target))


def _reasons(table: Table, source: str, target: str) -> tuple[tuple[str, str, str], ...]:
    """(edition, number, why) of each override, in the table's order."""
    return tuple((target, o.targets[0], o.reason) if o.source is None else (source, o.source, o.reason)
                 for o in table.overrides)


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


def _matcher() -> Any:
    """`judge.corpus.align`, or `MissingMatcher` when its libraries are not installed."""
    try:
        from judge.corpus import align
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] in MATCHER_MODULES:
            return None
        raise
    return align


def compute(graph: RuleGraph, source: str, target: str, language: str, table: Table) -> Concordance:
    """Align the two editions' texts in `language`, apply the overrides, classify."""
    matcher = _matcher()
    if matcher is None:
        raise MissingMatcher(source, target)
    old_rules = graph.rules(source, language)
    new_rules = graph.rules(target, language)
    if len(old_rules) * len(new_rules) > matcher.MAX_PAIRS:  # its memory grows with this product
        def number(n: int) -> str:
            return f"{n:,}".replace(",", "\u202f")

        raise ConcordanceError(
            f"concordance {source} → {target} non calculée : {number(len(old_rules))} × {number(len(new_rules))}"
            f" règles à comparer, au-delà des {number(matcher.MAX_PAIRS)} paires que judge compare (la "
            "mémoire de l'appariement croît avec ce produit)")
    folder = Folder(table.folds)
    old = [matcher.Item(number=r.number, heading=is_heading(r), words=comparison_words(r, folder))
           for r in old_rules]
    new = [matcher.Item(number=r.number, heading=is_heading(r), words=comparison_words(r)) for r in new_rules]
    old_index = {r.number: k for k, r in enumerate(old_rules)}
    new_index = {r.number: k for k, r in enumerate(new_rules)}
    reviewed = [(old_index[o.source], new_index[t]) for o in table.overrides if o.source in old_index
                for t in o.targets if t in new_index]
    links: list[Link] = [(old_rules[k.source].number, new_rules[k.target].number, k.similarity, k.method)
                         for k in matcher.align(old, new, reviewed)]
    links, reasons = _apply_overrides(links, table, source, target, {r.number for r in old_rules},
                                      {r.number for r in new_rules})
    return _classify(source, target, language, folder, old_rules, new_rules, links, reasons,
                     matcher.word_similarity)


Link = tuple[str, str, float, str]


def _apply_overrides(links: list[Link], table: Table, source: str, target: str, old: set[str],
                     new: set[str]) -> tuple[list[Link], tuple[tuple[str, str, str], ...]]:
    where = table.path or ""
    for k, override in enumerate(table.overrides):
        for number, known, side in ((override.source, old, "from"),
                                    *((t, new, "to") for t in override.targets)):
            if number is not None and number not in known:
                raise ManifestError(where, f"override[{k}].{side}", f"règle {number} absente du texte comparé")
        if override.source is None:
            links = [link for link in links if link[1] != override.targets[0]]
            continue
        links = [link for link in links if link[0] != override.source]
        links.extend((override.source, t, -1.0, "override") for t in override.targets)
    return links, _reasons(table, source, target)


def _classify(source: str, target: str, language: str, folder: Folder,
              old_rules: tuple[Rule, ...], new_rules: tuple[Rule, ...], links: list[Link],
              reasons: tuple[tuple[str, str, str], ...],
              word_similarity: Callable[[tuple[str, ...], tuple[str, ...]], float]) -> Concordance:
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


# ---------------------------------------------------------------------- structure check
@dataclass(frozen=True, slots=True, kw_only=True)
class Crossing:
    """A sub-rule of a titled rule (a keyword) paired under another titled rule than its own."""

    source: str
    target: str
    source_family: str  # the titled rule's number and name, "502.15 Phasing"
    target_family: str


def titled_families(rules: tuple[Rule, ...]) -> dict[str, Rule]:
    """The titled rules that have sub-rules (`502.15. Phasing` and `502.15a`…), by number."""
    by_number = {r.number: r for r in rules}
    out: dict[str, Rule] = {}
    for rule in rules:
        if rule.number[-1:].isalpha():
            parent = by_number.get(rule.number.rstrip("abcdefghijklmnopqrstuvwxyz"))
            if parent is not None and is_heading(parent) and parent.text.strip():
                out[parent.number] = parent
    return out


def family_crossings(graph: RuleGraph, table: Concordance) -> tuple[tuple[str, ...], tuple[Crossing, ...]]:
    """(the sub-rules of titled rules checked, the pairs that cross families).

    A sub-rule's own family on the other side is the titled rule of the same name; when there is
    none, a titled rule whose sub-rules name it (2010's Banding: « "Bands with other" is a special
    form of banding »), or one that the sub-rule's text names (2004's « 212.1 General » on
    supertypes, 2010's « 204.4 Supertypes »). A pair whose target is a sub-rule of another
    titled rule crosses; a target outside titled rules (a keyword's rule moved to a section of
    its own) does not."""
    old_rules = graph.rules(table.source, table.language)
    new_rules = graph.rules(table.target, table.language)
    old_families, new_families = titled_families(old_rules), titled_families(new_rules)

    def name(rule: Rule) -> str:
        return rule.text.strip().lower()

    new_by_name = {name(r): n for n, r in new_families.items()}
    new_texts: dict[str, str] = {}
    for rule in new_rules:
        parent = rule.number.rstrip("abcdefghijklmnopqrstuvwxyz")
        if parent in new_families and parent != rule.number:
            new_texts[parent] = new_texts.get(parent, "") + " " + rule.text.lower()

    def own(family: Rule) -> set[str]:
        found = new_by_name.get(name(family))
        if found is not None:
            return {found}
        return {n for n, text in new_texts.items() if name(family) in text}

    crossings: list[Crossing] = []
    checked: list[str] = []
    for rule in old_rules:
        parent = rule.number.rstrip("abcdefghijklmnopqrstuvwxyz")
        if parent == rule.number or parent not in old_families:
            continue
        family = old_families[parent]
        checked.append(rule.number)
        allowed = own(family)
        if name(family) not in new_by_name:  # no namesake: a titled rule its text names
            text = f" {rule.text.lower()} "
            allowed |= {n for n, r in new_families.items()
                        if re.search(rf"\b{re.escape(name(r).rstrip('s'))}s?\b", text)}
        for pair in table.counterparts(rule.number):
            target_parent = pair.target.rstrip("abcdefghijklmnopqrstuvwxyz")
            if target_parent != pair.target and target_parent in new_families and target_parent not in allowed:
                other = new_families[target_parent]
                crossings.append(Crossing(source=rule.number, target=pair.target,
                                          source_family=f"{parent} {family.text.strip()}",
                                          target_family=f"{target_parent} {other.text.strip()}"))
    return tuple(checked), tuple(crossings)
