"""What a search returns and how it is shown: `Hit`, `SearchResult`, snippets, JSON and text.

Owns the result shapes, what a hit shows of its rule (`Card`: made from the graph, stored in
the exported index), the marked snippet of each hit and the `judge search` outputs. Finding
and ranking the rules is `judge.search.query`'s job.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from judge.search.tokens import folded_tokens

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from judge.corpus.documents import Rule
    from judge.corpus.graph import RuleGraph

    Marked = Callable[[str], bool]  # is this folded word of a text a match?


_SNIPPET_CHARS = 220


@dataclass(frozen=True, slots=True, kw_only=True)
class Counterpart:
    """The same rule number in another language of the same release."""

    language: str
    number: str
    title: str | None
    text: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Card:
    """What a hit shows of its rule: made from the graph (`card_of`), exported with the index."""

    edition: str
    language: str
    number: str
    title: str | None
    status: str
    context: str | None
    counterpart: Counterpart | None
    removed_in: tuple[str, ...]
    texts: tuple[str, ...]  # where the snippet is looked for, in order: text, examples, title
    french_name: str | None = None  # an English rule named by a notion: its French name (terminology)


@dataclass(frozen=True, slots=True, kw_only=True)
class Hit:
    """One rule found: where it is, how well it matched and the matching passage."""

    edition: str
    language: str
    number: str
    title: str | None
    score: float
    snippet: str
    status: str
    context: str | None = None
    counterpart: Counterpart | None = None  # French for an English hit, English for a French one
    removed_in: tuple[str, ...] = ()  # later editions that removed the rule (2004's 300.3: 2010)
    french_name: str | None = None  # an English rule named by a notion of the terminology: its French name


@dataclass(frozen=True, slots=True, kw_only=True)
class GlossaryHit:
    """A Comprehensive Rules glossary entry that the query names (`judge.corpus.glossary`)."""

    edition: str
    language: str
    term: str
    text: str
    found_by: str  # "term", "lexicon" (FR↔EN glossary) or "words"


@dataclass(frozen=True, slots=True, kw_only=True)
class SearchResult:
    """Ranked hits for one query, with the corrected query also searched (« recherche aussi »)
    and a notice if any, and the glossary entries the query names."""

    query: str
    suggestion: str | None
    hits: tuple[Hit, ...]
    notice: str | None = None
    glossary: tuple[GlossaryHit, ...] = ()


def _titled_ancestor(graph: RuleGraph, rule: Rule) -> Rule | None:
    parent = graph.parent(rule)
    while parent is not None and not parent.title:
        parent = graph.parent(parent)
    return parent


def context_of(graph: RuleGraph, rule: Rule) -> str | None:
    """`308.2 · 308 Etape de déclaration des attaquants` for 308.2a; None for a section."""
    parent = graph.parent(rule)
    if parent is None:
        return None
    titled = parent if parent.title else _titled_ancestor(graph, parent)
    named = f"{titled.number} {titled.title}" if titled is not None else None
    if titled is parent:
        return named
    return f"{parent.number} · {named}" if named else parent.number


# ---------------------------------------------------------------------- snippets


def _marked(text: str, stop: frozenset[str], marked: Marked) -> list[tuple[int, int]]:
    return [(start, end) for term, start, end in folded_tokens(text, stop) if marked(term)]


def _escape(text: str) -> str:
    """`html.escape(text, quote=False)` (the `html` module costs a cold start a millisecond)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def make_snippet(text: str, spans: list[tuple[int, int]], width: int = _SNIPPET_CHARS) -> str:
    """The passage of `text` with the most matches, HTML-escaped, matches in `<mark>`."""
    if not text:
        return ""
    start, end = 0, len(text)
    if len(text) > width:
        best = 0
        if spans:
            # For each span, how many start in [its start, + width - 40): by bisection.
            starts = sorted(s for s, _ in spans)
            counts = [bisect_left(starts, a + width - 40) - bisect_left(starts, a) for a, _ in spans]
            best = spans[counts.index(max(counts))][0]
        start = max(0, best - 40)
        if start:
            space = text.find(" ", start)
            start = space + 1 if 0 <= space < best else start
        end = min(len(text), start + width)
        if end < len(text):
            space = text.rfind(" ", start, end)
            end = space if space > start else end
    pieces = ["… "] if start > 0 else []
    cursor = start
    for s, e in spans:
        if s < start or e > end:
            continue
        pieces.extend(
            (_escape(text[cursor:s]), "<mark>", _escape(text[s:e]), "</mark>")
        )
        cursor = e
    pieces.append(_escape(text[cursor:end]))
    if end < len(text):
        pieces.append(" …")
    return "".join(pieces)


# Characters of a text read for the words to mark (a line of a configured text may be
# megabytes long: its snippet comes from its beginning, each search reads no more of it).
SNIPPET_SCAN = 16_384


def _snippet(card: Card, stop: frozenset[str], marked: Marked) -> str:
    for source in card.texts:
        window = source if len(source) <= SNIPPET_SCAN else source[:source.rfind(" ", 0, SNIPPET_SCAN) + 1 or SNIPPET_SCAN]
        spans = _marked(window, stop, marked)
        if spans:
            return make_snippet(source, spans)
    return make_snippet(card.texts[0] or card.title or "", [])


_COUNTERPART_CHARS = 160


def counterpart_of(graph: RuleGraph, rule: Rule) -> Counterpart | None:
    """The rule's counterpart in the release's other language (its first language first)."""
    others = graph.translations(rule)
    if not others:
        return None
    other = others[0]
    text = " ".join(other.text[: _COUNTERPART_CHARS * 4].split())  # read no further than shown
    if len(text) > _COUNTERPART_CHARS:
        text = text[: _COUNTERPART_CHARS - 1].rstrip() + "…"
    return Counterpart(language=other.language, number=other.number, title=other.heading, text=text)


def french_name(rule: Rule) -> str | None:
    """The French name of an English rule whose name (heading) is a notion of the FR↔EN
    terminology (`702.17 Trample` -> « piétinement »), else None."""
    if rule.language != "en" or not rule.heading:
        return None
    from judge.corpus.names import term_key

    return _french_names().get(term_key(rule.heading))


@cache
def _french_names() -> dict[Any, str]:
    """The French name of each English name key of the terminology (its first notion's)."""
    from judge.corpus.lexicon import glossary
    from judge.corpus.names import term_key

    out: dict[Any, str] = {}
    for term in glossary():
        for name in term.en:
            out.setdefault(term_key(name), term.fr[0])
    return out


def card_of(graph: RuleGraph, rule: Rule) -> Card:
    return Card(
        french_name=french_name(rule),
        edition=rule.edition,
        language=rule.language,
        number=rule.number,
        title=rule.title,
        status=rule.status,
        context=context_of(graph, rule),
        counterpart=counterpart_of(graph, rule),
        removed_in=tuple(e.id for e in graph.removed_in(rule)),
        texts=(rule.text, *(example.text for example in rule.examples), rule.title or ""),
    )


def make_hit(card: Card, score: float, stop: frozenset[str], marked: Marked) -> Hit:
    """A hit of `card`; `marked` tells the words of its texts to mark (`stop`: its language's)."""
    return Hit(
        edition=card.edition,
        language=card.language,
        number=card.number,
        title=card.title,
        score=round(float(score), 3),
        snippet=_snippet(card, stop, marked),
        status=card.status,
        context=card.context,
        counterpart=card.counterpart,
        removed_in=card.removed_in,
        french_name=card.french_name,
    )


# ---------------------------------------------------------------------- output
def result_json(result: SearchResult) -> dict[str, Any]:
    """The stable `judge search --json` shape (see docs/cli.md), plus extra keys."""
    return {
        "query": result.query,
        "suggestion": result.suggestion,
        "notice": result.notice,
        "glossary": [
            {"edition": g.edition, "language": g.language, "term": g.term, "text": g.text,
             "found_by": g.found_by}
            for g in result.glossary
        ],
        "hits": [
            {
                "edition": hit.edition,
                "number": hit.number,
                "score": hit.score,
                "snippet": hit.snippet,
                "language": hit.language,
                "title": hit.title,
                "status": hit.status,
                "context": hit.context,
                "removed_in": list(hit.removed_in),
                "french_name": hit.french_name,
                "counterpart": None if hit.counterpart is None else {
                    "language": hit.counterpart.language,
                    "number": hit.counterpart.number,
                    "title": hit.counterpart.title,
                    "text": hit.counterpart.text,
                },
            }
            for hit in result.hits
        ],
    }


_MARK = re.compile(r"<mark>(.*?)</mark>")


def _plain(snippet: str) -> str:
    text = _MARK.sub(r"[\1]", snippet)
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


GLOSSARY_TEXT = 200  # characters of a glossary definition shown with the results


def short_definition(text: str) -> str:
    """A glossary definition on one line, cut after `GLOSSARY_TEXT` characters (`…`)."""
    text = " ".join(text.split())
    return text[:GLOSSARY_TEXT] + "…" if len(text) > GLOSSARY_TEXT else text


def result_text(result: SearchResult) -> str:
    """French human output: one block per hit, matched words in [brackets]."""
    lines = []
    if result.notice:
        lines.append(f"Note : {result.notice}")
    count = len(result.hits)
    if not count:
        lines.append(f"Aucun résultat pour « {result.query.strip()[:80]} ».")
    else:
        lines.append(f"{count} résultat{'s' if count > 1 else ''} pour « {result.query.strip()[:80]} » :")
    if result.suggestion:
        lines.append(f"Recherche aussi : « {result.suggestion} »")
    for entry in result.glossary:
        lines.append(f"Glossaire ({entry.edition}, {entry.language}) : {entry.term} — {short_definition(entry.text)}")
    for i, hit in enumerate(result.hits, 1):
        head = f"{i:2}. {hit.number}"
        if hit.title:
            head += f" {hit.title}"
        if hit.french_name:
            head += f" — « {hit.french_name} »"
        tags = [f"édition {hit.edition}", hit.language]
        if hit.status == "historical":
            tags.append("historique")
        if hit.removed_in:
            tags.append(f"supprimée en {', '.join(hit.removed_in)}")
        head += f"  ({', '.join(tags)})"
        lines.append(head)
        if hit.context:
            lines.append(f"    dans {hit.context}")
        if hit.snippet:
            lines.append(f"    {_plain(hit.snippet)}")
        if hit.counterpart is not None and hit.language != "fr" and hit.counterpart.language == "fr":
            lines.append(f"    en français ({hit.counterpart.number}) : {hit.counterpart.text}")
    return "\n".join(lines)
