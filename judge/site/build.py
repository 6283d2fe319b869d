"""The static HTML rulebook: view models, page rendering and the atomic, deterministic build.

Owns what each page shows (edition banner, sections, rules with their links) and the
`site/` layout; the Jinja2 setup is in `judge.site.templating`, the turn diagram in `judge.site.diagram`,
the offline search index in `judge.site.offline_index`. Rendering functions return strings so that
the web app (`judge serve`) can reuse them with `root="/"`.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from functools import lru_cache, partial
from pathlib import Path

import jinja2

from judge.checks.questions import QUESTION_BY_ASK, check_label
from judge.checks.rulemap import load_checks_for
from judge.corpus.citations import Doubt, rule_doubts
from judge.corpus.documents import Edition, Reference, Rule, Segment
from judge.corpus.gloss import Gloss, glossed
from judge.corpus.glossary import entries as glossary_entries
from judge.corpus.graph import RuleGraph
from judge.corpus.languages import language_name
from judge.corpus.lexicon import glossary as lexicon
from judge.corpus.names import term_key
from judge.corpus.numbers import sort_key
from judge.corpus.render import ChecksFor
from judge.errors import JudgeError, os_reason
from judge.game.share import encode_permalink
from judge.normalize import fold
from judge.resources import templates_dir
from judge.search.index import export_started
from judge.site.diagram import example_situation, turn_diagram
from judge.site.history_view import HistoryView, HistoryViews, changes_path, changes_section_path
from judge.site.offline import INSTALL, OFFLINE_PAGE, ORGANISERS_PAGE, READY, REST, offline_files
from judge.site.offline_index import SearchFiles, rule_numbers_file, search_files
from judge.site.parts import SectionParts, top_rule
from judge.site.templating import (
    FINGERPRINTED,
    asset_name,
    compact_script,
    edition_path,
    glossary_anchor,
    glossary_path,
    make_environment,
    page_path,
    rule_anchor,
    rule_redirect_path,
    rule_url,
    section_of,
)

MONTHS = ("janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août",
          "septembre", "octobre", "novembre", "décembre")
# Written under their fingerprinted names (`asset_name`).
STATIC_FILES = ("style.css", "search-match.js", "search-data.js", "search.js", "favicon.svg", "book.js", "rule-jump.js")


class SiteError(JudgeError):
    """The output folder cannot be written (or replaced)."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"impossible d'écrire le site dans {path} : {reason}")
        self.path = path
        self.reason = reason


# ---------------------------------------------------------------------- view models
@dataclass(frozen=True, slots=True, kw_only=True)
class Link:
    """A link to a rule (label, relative URL, tooltip)."""

    label: str
    href: str
    title: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class CitingRule:
    """A rule that cites this one, once: its link (in the edition's first language when it
    has the rule) and the languages it cites from (`Link`s labelled with their code)."""

    link: Link
    languages: tuple[Link, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class SegmentView:
    """A piece of rule text: plain (href None, missing False), a link, or a missing target
    (with `reason`, the short French words shown inline: why it cannot be followed)."""

    text: str
    href: str | None = None
    title: str = ""
    missing: bool = False
    doubt: str = ""  # a doubtful citation: why, and the likely rule (judge.corpus.citations)
    likely: Link | None = None  # the likely rule of a doubtful citation
    reason: str = ""
    gloss: str = ""  # the French name of the term just before (judge.corpus.gloss): no text of its own


@dataclass(frozen=True, slots=True, kw_only=True)
class CheckQuestion:
    """A question a check answers about this rule, with a link to the form pre-filled with it
    (served book only: the form needs the server)."""

    label: str
    href: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class RuleView:
    """Everything the page shows about one rule."""

    rule: Rule
    anchor: str
    depth: int
    segments: tuple[SegmentView, ...]
    examples: tuple[tuple[SegmentView, ...], ...]
    parent: Link | None
    children: tuple[Link, ...]
    previous: Link | None
    next: Link | None
    backlinks: tuple[CitingRule, ...]
    checks: tuple[CheckQuestion, ...]
    removed_in: tuple[Edition, ...]
    translations: tuple[RuleView, ...]
    history: HistoryView | None = None
    primary_link: Link | None = None  # a rule of another language: the same rule in the edition's first


@dataclass(frozen=True, slots=True, kw_only=True)
class SectionEntry:
    """One line of a table of contents."""

    number: str
    title: str
    href: str
    rule_count: int
    title_language: str = ""  # the title is from another language's text: that language's code
    title_language_label: str = ""  # and its French name


def french_date(iso: str | None) -> str:
    """`2004-06-01` -> `1er juin 2004`; anything else as given."""
    if not iso:
        return "date inconnue"
    parts = iso.split("-")
    if len(parts) != 3 or not all(p.isdigit() for p in parts):
        return iso
    year, month, day = (int(p) for p in parts)
    if not 1 <= month <= 12:
        return iso
    return f"{'1er' if day == 1 else day} {MONTHS[month - 1]} {year}"


# ---------------------------------------------------------------------- the renderer
class SiteRenderer:
    """Renders the pages of one graph; `root` is the prefix from a page to the site root."""

    def __init__(self, graph: RuleGraph, *, checks_for: ChecksFor | None = None,
                 env: jinja2.Environment | None = None) -> None:
        self.graph = graph
        self.checks_for = checks_for or load_checks_for(graph.editions, graph.knowledge_base)
        self.env = env or make_environment()
        self.history = HistoryViews(graph, self.url)
        self._sections: dict[tuple[str, str], dict[str, list[Rule]]] = {}
        self._search: SearchFiles | None = None
        self._numbers: tuple[str, str] | None = None
        # The static book cuts long sections into pages (judge.site.parts); the served book does not.
        self.parts = None if self.env.globals.get("served") else SectionParts(graph)
        self._parts_cache: dict[tuple[str, str | None], frozenset[str]] = {}

    # -------------------------------------------------------------- helpers
    def primary(self, edition: str) -> str:
        return self.graph.primary_language(edition)

    def part(self, rule: Rule) -> str | None:
        """The page of `rule` in a split section (`702.19`), else None (judge.site.parts)."""
        return self.parts.part(rule) if self.parts is not None else None

    def url(self, rule: Rule, root: str) -> str:
        return rule_url(rule, root, self.primary(rule.edition), self.part(rule))

    def link(self, rule: Rule, root: str) -> Link:
        label = rule.number if not rule.heading else f"{rule.number} {rule.heading}"
        if rule.language != self.primary(rule.edition):
            label += f" ({rule.language})"
        return Link(label=label, href=self.url(rule, root), title=f"Règle {rule.number}")

    def segments(self, rule: Rule, segments: tuple[Segment, ...], root: str,
                 seen: set[int | str] | None = None) -> tuple[SegmentView, ...]:
        """A rule's text (or an example's) with its links, and the French names of its terms
        when it is English only (`judge.corpus.gloss`; `seen`: the terms glossed on the page)."""
        doubts = {id(d.reference): d for d in rule_doubts(self.graph, rule)}
        pieces = glossed(self.graph, rule, segments, seen)
        return self.text_segments(rule.edition, rule.language, pieces, root, doubts)

    def text_segments(self, edition: str, language: str, segments: tuple[Segment | Gloss, ...], root: str,
                      doubts: dict[int, Doubt] | None = None) -> tuple[SegmentView, ...]:
        """A text of one edition and language (a rule's, a glossary entry's) with its links."""
        out: list[SegmentView] = []
        doubts = doubts or {}
        for segment in segments:
            if isinstance(segment, Gloss):
                out.append(self.gloss_view(segment, root))
                continue
            if not isinstance(segment, Reference):
                out.append(SegmentView(text=segment.text))
                continue
            text = segment.text or segment.number
            target = self.graph.resolve_in(edition, language, segment.number)
            if target is None:
                quoted = f"« {segment.title} » : " if segment.title else ""
                out.append(SegmentView(
                    text=text, missing=True,
                    title=f"{quoted}règle {segment.number} absente du corpus (édition {edition})",
                    reason=f"règle absente de ce corpus ({self.graph.edition(edition).label})",
                ))
            else:
                name = f" — {target.heading}" if target.heading else ""
                lang = f" ({language_name(target.language)})" if target.language != language else ""
                doubt = doubts.get(id(segment))
                out.append(SegmentView(text=text, href=self.url(target, root),
                                       title=f"Règle {target.number}{name}{lang}",
                                       doubt=doubt.note if doubt else "",
                                       likely=self.link(doubt.likely, root) if doubt else None))
        return tuple(out)

    def gloss_view(self, gloss: Gloss, root: str) -> SegmentView:
        """The French name of a term (`templates/_gloss.html`), linked to the French rule that
        defines it when there is one."""
        href = None
        if gloss.defined_by:
            edition, _, number = gloss.defined_by[0].partition(":")
            rule = self.graph.get(edition, number, "fr")
            if rule is not None:
                href = self.url(rule, root)
        return SegmentView(text="", gloss=gloss.french, href=href)

    def _same_page(self, one: Rule, other: Rule) -> bool:
        return (one.edition, one.language, section_of(one.number), self.part(one)) == (
            other.edition, other.language, section_of(other.number), self.part(other))

    def citing(self, rule: Rule, root: str) -> tuple[CitingRule, ...]:
        """The rules citing `rule`, each once (its languages grouped), in the graph's order."""
        groups: dict[tuple[str, str], list[Rule]] = {}
        for citing in self.graph.backlinks(rule):
            groups.setdefault((citing.edition, citing.number), []).append(citing)
        out = []
        for (edition, _number), rules in groups.items():
            primary = self.primary(edition)
            first = next((r for r in rules if r.language == primary), rules[0])
            label = first.number if not first.heading else f"{first.number} {first.heading}"
            languages = tuple(Link(label=r.language.upper(), href=self.url(r, root),
                                   title=f"Règle {r.number} ({language_name(r.language)})") for r in rules)
            out.append(CitingRule(link=Link(label=label, href=self.url(first, root), title=f"Règle {first.number}"),
                                  languages=languages if len(rules) > 1 or first.language != rule.language else ()))
        return tuple(out)

    def check_questions(self, rule: Rule) -> tuple[CheckQuestion, ...]:
        """The checks of a rule as the French questions they answer (one per question)."""
        served = bool(self.env.globals.get("served"))
        app = "/" if served else self.env.globals.get("app_url")
        out: list[CheckQuestion] = []
        for name in self.checks_for(rule.edition, rule.number):
            spec = QUESTION_BY_ASK.get(name)
            label = check_label(name)
            href = None
            if app and spec is not None:
                token = encode_permalink(example_situation(self.graph, rule, spec.ask))
                href = f"{app}situation?modele={token}" if token else None
            if all(q.label != label for q in out):
                out.append(CheckQuestion(label=label, href=href))
        return tuple(out)

    def depth(self, rule: Rule) -> int:
        return {"section": 0, "rule": 0, "subrule": 1}[rule.kind]

    def rule_view(self, rule: Rule, root: str, *, with_translations: bool = True,
                  with_history: bool = True, seen: set[int | str] | None = None) -> RuleView:
        g = self.graph
        parent, previous, following = g.parent(rule), g.previous(rule), g.next(rule)
        translations: tuple[RuleView, ...] = ()
        if with_translations:
            translations = tuple(self.rule_view(t, root, with_translations=False, with_history=False)
                                 for t in g.translations(rule))
        return RuleView(
            rule=rule,
            anchor=rule_anchor(rule.number),
            depth=self.depth(rule),
            segments=self.segments(rule, rule.segments, root, seen),
            examples=tuple(self.segments(rule, ex.segments, root, seen) for ex in rule.examples),
            parent=self.link(parent, root) if parent else None,
            # Subrules on the same page follow just below: only those of other pages are linked.
            children=tuple(self.link(c, root) for c in g.children(rule) if not self._same_page(c, rule)),
            # Neighbours on the same page are just above and below: only other pages are linked.
            previous=self.link(previous, root) if previous and not self._same_page(previous, rule) else None,
            next=self.link(following, root) if following and not self._same_page(following, rule) else None,
            backlinks=self.citing(rule, root),
            checks=self.check_questions(rule) if rule.language == self.primary(rule.edition) else (),
            removed_in=g.removed_in(rule),
            translations=translations,
            history=self.history.for_rule(rule, root) if with_history else None,
            primary_link=self._primary_link(rule, root),
        )

    def _primary_link(self, rule: Rule, root: str) -> Link | None:
        primary = self.primary(rule.edition)
        if rule.language == primary:
            return None
        same = self.graph.get(rule.edition, rule.number, primary)
        return self.link(same, root) if same is not None else None

    def sections(self, edition: str, language: str | None = None) -> dict[str, list[Rule]]:
        """Rules grouped by section number, in numeric order (a missing section line is fine)."""
        lang = language or self.primary(edition)
        cached = self._sections.get((edition, lang))
        if cached is None:
            grouped: dict[str, list[Rule]] = {}
            for rule in self.graph.rules(edition, lang):
                grouped.setdefault(section_of(rule.number), []).append(rule)
            cached = dict(sorted(grouped.items(), key=lambda item: sort_key(item[0])))
            self._sections[(edition, lang)] = cached
        return cached

    def section_title(self, edition: str, section: str, rules: list[Rule]) -> str:
        return self.section_heading(edition, section, rules)[0]

    def section_heading(self, edition: str, section: str, rules: list[Rule]) -> tuple[str, str]:
        """A section's title and, when its own text has none and another language's gives it,
        that language's code (2010's French 505: « Main Phase », "en")."""
        head = rules[0] if rules and rules[0].number == section else None
        if head is not None and head.title:
            return head.title, ""
        for language in self.graph.edition(edition).languages:
            other = self.graph.get(edition, section, language)
            if other is not None and other.title:
                return other.title, language
        return f"Section {section}", ""

    def toc(self, edition: str, root: str, language: str | None = None) -> tuple[SectionEntry, ...]:
        lang = None if language in (None, self.primary(edition)) else language
        out = []
        for number, rules in self.sections(edition, language).items():
            title, title_language = self.section_heading(edition, number, rules)
            out.append(SectionEntry(number=number, title=title, href=root + page_path(edition, number, lang),
                                    rule_count=len(rules), title_language=title_language,
                                    title_language_label=language_name(title_language) if title_language else ""))
        return tuple(out)

    def banner(self, edition: Edition) -> dict[str, object]:
        languages = edition.languages
        return {
            "edition": edition,
            "released": french_date(edition.released),
            "languages": tuple(language_name(lang) for lang in languages),
            "codes": tuple(lang.upper() for lang in languages),
            "primary": language_name(languages[0]),
            "bilingual": len(languages) > 1,
        }

    @property
    def rule_numbers(self) -> tuple[str, str]:
        """The static book's rule number list (`rule-numbers.<digest>.js`): path and content."""
        if self._numbers is None:
            split = self.parts.split_sections if self.parts is not None else None
            self._numbers = rule_numbers_file(self.graph, split)
        return self._numbers

    def _render(self, template: str, **context: object) -> str:
        if not self.env.globals.get("served"):
            context.setdefault("rule_numbers", self.rule_numbers[0])
        return self.env.get_template(template).render(**context)

    # -------------------------------------------------------------- pages
    def render_index(self, root: str = "") -> str:
        editions = [
            {"banner": self.banner(e), "href": root + edition_path(e.id),
             "toc": self.toc(e.id, root)}
            for e in self.graph.editions
        ]
        changes = [{"label": f"{old} → {new}", "href": root + changes_path(old, new)}
                   for old, new in self.history.pairs_of_editions() if self.history.table(old, new)]
        return self._render("index.html", root=root, editions=editions, changes=changes)

    def render_edition(self, edition_id: str, root: str = "../", language: str | None = None) -> str:
        edition = self.graph.edition(edition_id)
        lang = language or edition.languages[0]
        other_languages = [
            {"name": language_name(code),
             "href": root + edition_path(edition_id, None if code == edition.languages[0] else code)}
            for code in edition.languages if code != lang
        ]
        return self._render(
            "edition.html", root=root, banner=self.banner(edition), language=lang,
            language_label=language_name(lang), toc=self.toc(edition_id, root, lang),
            other_languages=other_languages,
            diagram=turn_diagram(self.graph, edition_id, root) if lang == edition.languages[0] else "",
            glossary_href=root + glossary_path(edition_id) if self.has_glossary(edition_id) else None,
            edition_href=root + edition_path(edition_id, None if lang == edition.languages[0] else lang),
        )

    def render_section(self, edition_id: str, section: str, root: str = "../",
                       language: str | None = None, part: str | None = None) -> str:
        """A section's page; in a split section (judge.site.parts), its index (`part` None:
        the section's own rule and a link to each of its rules' pages) or the page of one of
        its rules with its subrules (`part`: `702.19`)."""
        edition = self.graph.edition(edition_id)
        lang = language or edition.languages[0]
        grouped = self.sections(edition_id, lang)
        if section not in grouped:
            from judge.errors import NotFound

            raise NotFound(f"section {section} absente de l'édition {edition_id} ({lang})")
        rules = grouped[section]
        numbers = list(grouped)
        i = numbers.index(section)
        sub = None if lang == edition.languages[0] else lang

        def neighbour(j: int) -> Link | None:
            if 0 <= j < len(numbers):
                n = numbers[j]
                return Link(label=f"{n} {self.section_title(edition_id, n, grouped[n])}",
                            href=root + page_path(edition_id, n, sub))
            return None

        title, title_language = self.section_heading(edition_id, section, rules)
        split = self.parts is not None and self.parts.is_split(edition_id, lang, section)
        index: list[SectionEntry] = []
        part_title = ""
        previous_part = next_part = None
        if split:
            index = [SectionEntry(number=r.number, title=_short(r.title or r.text), rule_count=0,
                                  href=root + page_path(edition_id, r.number, sub))
                     for r in rules if r.number == top_rule(r.number)]
            rules = [r for r in rules if self.part(r) == part]
            part_title, previous_part, next_part = _part_place(index, part)
        seen: set[int | str] = set()  # a term's French name on its first use in the page
        views = [self.rule_view(r, root, with_translations=sub is None, seen=seen) for r in rules]
        if split and part is None:  # the index lists the section's rules once, below
            views = [_without_children(v) for v in views]
        primary = edition.languages[0]
        # The section in the edition's first language, from a page of another language.
        primary_page = (root + page_path(edition_id, section)
                        if sub is not None and section in self.sections(edition_id, primary) else None)
        return self._render(
            "section.html", root=root, banner=self.banner(edition), language=lang,
            split=split, part=part, part_title=part_title, index=index if part is None else [],
            section_href=root + page_path(edition_id, section, sub),
            previous_part=previous_part, next_part=next_part,
            language_label=language_name(lang), section=section,
            title=title, title_language=title_language, title_language_label=language_name(title_language),
            rules=views, previous_section=neighbour(i - 1), next_section=neighbour(i + 1),
            edition_href=root + edition_path(edition_id, sub),
            bilingual=any(v.translations for v in views),
            primary_code=primary.upper(), language_code=lang.upper(),
            translation_codes=" / ".join(code.upper() for code in edition.languages[1:]),
            primary_page=primary_page, primary_language=primary, primary_language_label=language_name(primary),
            glossed=bool(seen),
        )

    def render_rule_redirect(self, rule: Rule, root: str = "../") -> str:
        """The static book's per-rule URL (`2004/300.3.html`): a page that opens the rule's
        anchor in its page (a meta refresh, so it works from file:// without script)."""
        return self._render(
            "rule_redirect.html", root=root, number=rule.number,
            edition_label=self.graph.edition(rule.edition).label,
            target=f"{self.part(rule) or section_of(rule.number)}.html#{rule_anchor(rule.number)}",
        )

    @property
    def search_files(self) -> SearchFiles:
        """The static search index's files (`judge.site.offline_index`), made once."""
        if self._search is None:
            self._search = search_files(self.graph, lambda rule: self.url(rule, ""))
        return self._search

    def render_search(self, root: str = "") -> str:
        return self._render("search.html", root=root, search_manifest=self.search_files.manifest)

    def render_changes(self, older: str, newer: str, root: str = "../") -> str:
        """The changes between two editions (older first): counts, reviewed corrections and the
        index of the sections, each section's changes on its own page (`render_changes_section`)."""
        return self._render("changes.html", root=root, **self.history.changes_context(older, newer, root))

    def render_changes_section(self, older: str, newer: str, key: str, root: str = "../../") -> str:
        """The changes of one section of the older edition (`key`, see `HistoryViews.change_keys`)."""
        return self._render("changes_section.html", root=root,
                            **self.history.changes_section_context(older, newer, key, root))

    def has_glossary(self, edition_id: str) -> bool:
        return any(self.graph.glossary(edition_id, lang) for lang in self.graph.edition(edition_id).languages)

    def render_glossary(self, edition_id: str, root: str = "../") -> str:
        """The Comprehensive Rules glossary of an edition: each term, its French name (FR↔EN
        glossary) when known, its definition with links to the rules it cites."""
        edition = self.graph.edition(edition_id)
        french = {term_key(name): term.fr[0] for term in lexicon() for name in term.en}
        items: list[dict[str, object]] = []
        seen: set[str] = set()
        for _, language, entry in glossary_entries(self.graph, edition_id):
            anchor = glossary_anchor(entry.term)
            while anchor in seen:
                anchor += "-"
            seen.add(anchor)
            items.append({
                "term": entry.term, "anchor": anchor, "language": language,
                "french": french.get(term_key(entry.term)),
                "segments": self.text_segments(edition_id, language, entry.segments, root),
            })
        letters: dict[str, list[dict[str, object]]] = {}
        for item in items:
            initial = fold(str(item["term"]))[:1].upper()
            letters.setdefault(initial if initial.isalpha() else "#", []).append(item)
        # The French names, A to Z, each with its English term: the way in for a French reader.
        french_letters: dict[str, list[dict[str, object]]] = {}
        for item in sorted((i for i in items if i["french"]), key=lambda i: (fold(str(i["french"])), str(i["term"]))):
            initial = fold(str(item["french"]))[:1].upper()
            french_letters.setdefault(initial if initial.isalpha() else "#", []).append(item)
        return self._render("glossary.html", root=root, banner=self.banner(edition), items=items,
                            letters=sorted(letters.items(), key=lambda kv: (kv[0] == "#", kv[0])),
                            french_letters=sorted(french_letters.items(), key=lambda kv: (kv[0] == "#", kv[0])),
                            french_count=sum(len(group) for group in french_letters.values()),
                            edition_href=root + edition_path(edition_id))

    # -------------------------------------------------------------- the whole site
    def pages(self, base_url: str | None = None, rendered: dict[str, str] | None = None
              ) -> Iterator[tuple[str, str | bytes]]:
        """Every (relative path, content) of the site, in a stable order.

        Links are relative (the site works from any folder, `file://` included) unless
        `base_url` is given (see `base_url`): then every link starts with it. The book's
        pages come first, then its offline files (`judge.site.offline`). `rendered`: pages
        already rendered by `pages_ahead`, by path, given as they are.
        """
        return offline_files(self._book_pages(base_url, rendered or {}), self.offline_tier)

    def pages_ahead(self, base_url: str | None = None) -> Iterator[tuple[str, str]]:
        """The book's pages that need no search index (all but `search.html`), rendered, in
        the order of `pages`: what `judge build` writes while its search index is made."""
        for path, render in self._book_makers(base_url):
            if path != "search.html":
                yield path, render()

    def offline_tier(self, path: str) -> int | None:
        """When the offline book stores a file (judge.site.offline): at install, the shell
        (home, search page and its manifest, offline page, assets, rule numbers); once active,
        first the pages in each edition's first language, every edition's contents and the
        search's chunks; then the rest (other languages, glossaries, changes, the organisers'
        page). A rule's redirect page: never (the worker opens its page itself)."""
        if path in ("index.html", "search.html", OFFLINE_PAGE, self.rule_numbers[0], self.search_files.manifest) \
                or ("/" not in path and not path.endswith(".html")):
            return INSTALL
        if path.startswith("search/"):
            return READY
        edition, _, rest = path.partition("/")
        if not rest:
            return REST
        if rest.endswith("index.html"):
            return READY
        language = rest.partition("/")[0] if "/" in rest else None
        name = rest.rsplit("/", 1)[-1]
        if name != "glossaire.html" and name.count(".") > 1 and name.removesuffix(".html") not in self._part_pages(
                edition, language):
            return None  # a rule's redirect page
        if edition in self._edition_ids() and language is None and name != "glossaire.html":
            return READY
        return REST

    def _part_pages(self, edition: str, language: str | None) -> frozenset[str]:
        """The rules' pages of the split sections of one edition and language (`702.19`)."""
        found = self._parts_cache.get((edition, language))
        if found is None:
            lang = language or self.primary(edition)
            found = frozenset(self.part(r) or "" for r in self.graph.rules(edition, lang)) - {""}
            self._parts_cache[(edition, language)] = found
        return found

    def _edition_ids(self) -> frozenset[str]:
        return frozenset(e.id for e in self.graph.editions)

    def _book_makers(self, base_url: str | None) -> Iterator[tuple[str, Callable[[], str]]]:
        """The book's pages in order, each as its path and what renders it."""
        yield "index.html", partial(self.render_index, base_url or "")
        yield "search.html", partial(self.render_search, base_url or "")
        yield OFFLINE_PAGE, partial(self._render, "offline.html", root=base_url or "")
        yield ORGANISERS_PAGE, partial(self._render, "organisers.html", root=base_url or "")
        for edition in self.graph.editions:
            for n, lang in enumerate(edition.languages):
                sub = None if n == 0 else lang
                root = base_url or ("../" if sub is None else "../../")
                yield edition_path(edition.id, sub), partial(self.render_edition, edition.id, root, lang)
                for section in self.sections(edition.id, lang):
                    yield page_path(edition.id, section, sub), partial(self.render_section, edition.id, section, root, lang)
                for rule in self.graph.rules(edition.id, lang):
                    section = section_of(rule.number)
                    if rule.number == section:
                        continue
                    if self.part(rule) == rule.number:  # a rule's page in a split section
                        yield rule_redirect_path(rule, sub), partial(
                            self.render_section, edition.id, section, root, lang, rule.number)
                    else:
                        yield rule_redirect_path(rule, sub), partial(self.render_rule_redirect, rule, root)
            if self.has_glossary(edition.id):
                yield glossary_path(edition.id), partial(self.render_glossary, edition.id, base_url or "../")
        for older, newer in self.history.pairs_of_editions():
            if self.history.table(older, newer) is not None:
                yield changes_path(older, newer), partial(self.render_changes, older, newer, base_url or "../")
                for key in self.history.change_keys(older, newer):
                    yield changes_section_path(older, newer, key), partial(
                        self.render_changes_section, older, newer, key, base_url or "../../")

    def _book_pages(self, base_url: str | None, rendered: dict[str, str]) -> Iterator[tuple[str, str | bytes]]:
        for path, render in self._book_makers(base_url):
            found = rendered.get(path)
            yield path, render() if found is None else found
        yield from self.search_files.files
        yield self.rule_numbers
        for name in STATIC_FILES:
            yield (name if name not in FINGERPRINTED else asset_name(name)), _static_text(name)


def _short(text: str, limit: int = 70) -> str:
    """A rule's text cut for an index line (at a word, with « … »)."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    return text[:limit].rsplit(" ", 1)[0].rstrip(",;:") + "…"


def _part_place(index: list[SectionEntry], part: str | None) -> tuple[str, Link | None, Link | None]:
    """A rule page of a split section: its title and the links to the pages before and after it
    in the section's `index` (none for the section's own page, `part` None)."""
    if part is None:
        return "", None, None
    at = [e.number for e in index].index(part)

    def link(j: int) -> Link | None:
        return Link(label=f"{index[j].number} {index[j].title}", href=index[j].href) if 0 <= j < len(index) else None

    return index[at].title, link(at - 1), link(at + 1)


def _without_children(view: RuleView) -> RuleView:
    return replace(view, children=())


@lru_cache(maxsize=8)
def _static_text_cached(path: str, mtime: float) -> str:
    return Path(path).read_text(encoding="utf-8")


def _static_text(name: str) -> str:
    """An asset as the book ships it (its scripts compacted: `compact_script`)."""
    path = templates_dir() / name
    text = _static_text_cached(str(path), path.stat().st_mtime)
    return compact_script(text) if name.endswith(".js") else text


# ---------------------------------------------------------------------- public API
def render_index(graph: RuleGraph, root: str = "") -> str:
    return SiteRenderer(graph).render_index(root)


def render_edition(graph: RuleGraph, edition: str, root: str = "../", language: str | None = None) -> str:
    return SiteRenderer(graph).render_edition(edition, root, language)


def render_section(graph: RuleGraph, edition: str, section_number: str, root: str = "../",
                   language: str | None = None) -> str:
    return SiteRenderer(graph).render_section(edition, section_number, root, language)


_SITE = r"https?://[A-Za-z0-9.-]+(?::\d+)?"
_PATH = r"/(?:[A-Za-z0-9._~-]+/)*$"
_BASE_URL = re.compile(rf"^(?:{_SITE})?{_PATH}")
_APP_URL = re.compile(rf"^{_SITE}{_PATH}")


def _url(value: str, pattern: re.Pattern[str], option: str, expected: str) -> str:
    """`value` with a final `/`, checked against `pattern` (no `..` or `.` segment)."""
    url = value if value.endswith("/") else value + "/"
    if not pattern.match(url) or "/../" in url or "/./" in url:
        raise JudgeError(f"{option} invalide : « {value[:80]} » (attendu {expected})")
    return url


def base_url(value: str) -> str:
    """A validated prefix for every link of the site: `/regles/` (a sub-path of the server),
    or `https://exemple.org/regles/`; a missing final `/` is added."""
    return _url(value, _BASE_URL, "--base-url",
                "un chemin comme /regles/ ou une adresse comme https://exemple.org/regles/")


def app_url(value: str) -> str:
    """A validated address of a `judge serve` (`http://192.168.1.10:8000/`) that the static book
    links to for questions and situations; a missing final `/` is added."""
    return _url(value, _APP_URL, "--app-url", "l'adresse d'un judge serve, comme http://192.168.1.10:8000/")


# The file a build writes first into its folder: it says the folder is judge's, and (once the
# build is complete) lists every file the build wrote, so that the next build replaces only those.
MARKER = ".judge-build"
_MARKER_HEAD = "judge build : dossier écrit par judge, remplacé en entier par le prochain judge build\n"
# Staging (`.NAME-build-PID-XXXX`) and swapped-out (`.NAME-old-PID-XXXX`) folders beside the output.
_SIDE = re.compile(r"\.(?P<name>.+)-(?:build|old)-(?:(?P<pid>\d+)-)?[a-z0-9_]{8}", re.DOTALL)  # any name
# A staging folder of the old naming (no process id) is stale after this many seconds.
_LEGACY_STALE_SECONDS = 3600


def _inside(folder: Path, relative: str, resolved: Path) -> Path:
    """`folder / relative`, refused unless it lies inside `folder` (no absolute path, no `..`;
    `resolved`: the folder's real path, found once for a whole build)."""
    parts = relative.split("/")
    if (not relative or relative.startswith("/") or "\\" in relative or "\x00" in relative
            or any(part in ("", ".", "..") for part in parts)):
        raise SiteError(folder, f"chemin de page refusé : « {relative[:80]} » (hors du dossier du site)")
    target = folder / relative
    if not target.resolve().is_relative_to(resolved):
        raise SiteError(folder, f"chemin de page refusé : « {relative[:80]} » (hors du dossier du site)")
    return target


def write_site(graph: RuleGraph, folder: Path, *, checks_for: ChecksFor | None = None,
               base_url: str | None = None, app_url: str | None = None) -> tuple[str, ...]:
    """Write every page into `folder` (which must exist), bytes in UTF-8 with LF line ends;
    every path is checked to lie inside `folder`. Returns the relative paths written.
    `app_url` (see `app_url`): the `judge serve` the book's pages link to for questions."""
    from judge.progress import number, say

    say("Livre de règles : écriture des pages…")
    # The search index not made yet (a first run): a helper process makes it while the pages
    # that do not need it are written, then the others are made with it, in the book's order.
    search = export_started(graph)
    try:
        renderer = SiteRenderer(graph, checks_for=checks_for, env=make_environment(app_url=app_url))
        resolved = folder.resolve()
        count = 0

        def write(relative: str, content: str | bytes) -> None:
            nonlocal count
            target = _inside(folder, relative, resolved)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
            count += 1
            if count % 1000 == 0:
                say(f"Livre de règles : {number(count)} fichiers écrits…")

        ahead: dict[str, str] = {}
        if search is not None:
            for relative, content in renderer.pages_ahead(base_url):
                write(relative, content)
                ahead[relative] = content
            search.wait()  # done or not: the search pages make the export if it is still missing
        written: list[str] = []
        for relative, page in renderer.pages(base_url, ahead):
            if relative not in ahead:
                write(relative, page)
            written.append(relative)
    finally:
        if search is not None:
            search.close()
    return tuple(written)


def _refuse(out: Path, reason: str) -> SiteError:
    return SiteError(out, f"{reason} ; rien n'a été supprimé (choisissez un dossier vide, nouveau, "
                          "ou celui d'un judge build précédent)")


def _check_owned(out: Path) -> None:
    """`out` may be replaced: missing, an empty folder, or a folder holding only what a previous
    build wrote (its marker lists it). Anything else is the user's: a `SiteError`, nothing touched."""
    import os

    if out.is_symlink():
        raise _refuse(out, "c'est un lien symbolique")
    if not out.exists():
        return
    if not out.is_dir():
        raise SiteError(out, "ce chemin existe et n'est pas un dossier")
    cwd = Path(os.path.realpath(os.getcwd()))
    real = Path(os.path.realpath(out))
    if cwd == real or cwd.is_relative_to(real):
        raise _refuse(out, "c'est le dossier courant ou l'un de ses parents")
    try:
        entries = [p for p in out.rglob("*")]
    except OSError as exc:
        raise SiteError(out, os_reason(exc)) from exc
    if not entries:
        return
    marker = out / MARKER
    try:
        if marker.is_symlink() or not marker.is_file() or marker.stat().st_size > 16 * 1024 * 1024:
            raise _refuse(out, f"le dossier n'est pas vide et n'a pas été écrit par judge build ({MARKER} absent)")
        lines = marker.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        reason = os_reason(exc) if isinstance(exc, OSError) else "pas en UTF-8"
        raise _refuse(out, f"{MARKER} illisible ({reason})") from None
    if not lines or lines[0] + "\n" != _MARKER_HEAD:
        raise _refuse(out, f"{MARKER} n'est pas celui de judge build")
    owned = {MARKER, *lines[1:]}
    for relative in list(owned):  # the folders holding owned files
        parts = relative.split("/")
        owned.update("/".join(parts[:i]) for i in range(1, len(parts)))
    for entry in entries:
        relative = entry.relative_to(out).as_posix()
        if relative not in owned or (entry.is_symlink()):
            raise _refuse(out, f"il contient « {relative[:80]} », que judge build n'a pas écrit")


def _remove_stale(out: Path) -> None:
    """Remove the staging and swapped-out folders of earlier builds of `out` that were killed
    (their process is gone), when they hold a judge build (or nothing)."""
    import os
    import time

    try:
        siblings = list(out.parent.iterdir())
    except OSError:
        return
    for side in siblings:
        match = _SIDE.fullmatch(side.name)
        if match is None or match["name"] != out.name or side.is_symlink() or not side.is_dir():
            continue
        if match["pid"] is not None:
            pid = int(match["pid"])
            if pid == os.getpid() or _alive(pid):
                continue
        else:
            try:
                if time.time() - side.stat().st_mtime < _LEGACY_STALE_SECONDS:
                    continue
            except OSError:
                continue
        try:
            if any(side.iterdir()) and not (side / MARKER).is_file() and not (side / "index.html").is_file():
                continue  # not a judge build: left alone
        except OSError:
            continue
        shutil.rmtree(side, ignore_errors=True)


def _alive(pid: int) -> bool:
    import os

    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True
    return True


def build_target(out_dir: Path | str) -> Path:
    """`out_dir` as an absolute path, refused (`SiteError`, nothing touched) unless `judge build`
    may write there: missing, empty, or a previous build's; never the root, the current folder
    or one of its parents. Cheap: `judge build` asks before it loads the corpus."""
    import os

    if not str(out_dir).strip():
        raise JudgeError("--out : nom de dossier vide ; rien n'a été écrit ni supprimé")
    out = Path(os.path.abspath(out_dir))
    if out.parent == out or not out.name or out.name in (".", ".."):
        raise _refuse(out, "c'est la racine du système de fichiers")
    cwd = Path(os.path.realpath(os.getcwd()))
    if cwd == out or cwd.is_relative_to(out) or cwd.is_relative_to(Path(os.path.realpath(out))):
        raise _refuse(out, "c'est le dossier courant ou l'un de ses parents")
    _check_owned(out)
    return out


def build_site(graph: RuleGraph, out_dir: Path | str, *, checks_for: ChecksFor | None = None,
               base_url: str | None = None, app_url: str | None = None) -> Path:
    """Build into a temporary folder beside `out_dir`, then swap it in; returns index.html's path.

    `out_dir` must be missing, empty, or a previous build's (its `.judge-build` marker lists
    every file it holds): anything else, the current folder or one of its parents is refused
    (`SiteError`) and nothing is touched. An existing build is replaced only once the new site
    is complete; on any failure it is left untouched and the temporary folder is removed.
    Staging folders of earlier killed builds are removed.
    """
    import os

    out = build_target(out_dir)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        _remove_stale(out)
        staging = Path(tempfile.mkdtemp(prefix=f".{out.name}-build-{os.getpid()}-", dir=out.parent))
    except OSError as exc:
        raise SiteError(out, os_reason(exc)) from exc
    try:
        staging.chmod(0o755)
        (staging / MARKER).write_text(_MARKER_HEAD, encoding="utf-8")
        written = write_site(graph, staging, checks_for=checks_for, base_url=base_url, app_url=app_url)
        (staging / MARKER).write_text(_MARKER_HEAD + "".join(f"{r}\n" for r in written), encoding="utf-8")
        if out.exists():
            _check_owned(out)  # again: the user may have written into it during the build
            old = Path(tempfile.mkdtemp(prefix=f".{out.name}-old-{os.getpid()}-", dir=out.parent))
            old.rmdir()
            out.rename(old)
            staging.rename(out)
            shutil.rmtree(old, ignore_errors=True)
        else:
            staging.rename(out)
    except OSError as exc:
        shutil.rmtree(staging, ignore_errors=True)
        raise SiteError(out, os_reason(exc)) from exc
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return out / "index.html"
