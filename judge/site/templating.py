"""The Jinja2 environment shared by the static site (`judge.site.build`) and the web app.

Owns the loader, autoescaping, `StrictUndefined` and every filter, registered by name in
`register_filters`. Link strategy: each page receives `root`, the prefix to the site root
("" for the index, "../" for an edition page, "/" for the server), and builds every URL from it.
"""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache
from typing import Any

import jinja2

from judge.checks.questions import COMBAT_POINT_WORDS
from judge.corpus.documents import Rule
from judge.corpus.languages import language_name
from judge.corpus.numbers import typed_grammar_json
from judge.normalize import fold
from judge.resources import templates_dir
from judge.search.output import short_definition


def rule_anchor(number: str) -> str:
    """`306.2a` -> `R3062a`: the id of a rule's element on its page."""
    return "R" + number.replace(".", "").replace("-", "")


def section_of(number: str) -> str:
    """`306.2a` -> `306`: the section a rule is grouped under (its page)."""
    return number.split(".", 1)[0]


def page_path(edition: str, section: str, language: str | None = None) -> str:
    """Path of a section page relative to the site root (`2004/305.html`, `2004/en/217.html`)."""
    if language:
        return f"{edition}/{language}/{section}.html"
    return f"{edition}/{section}.html"


def glossary_path(edition: str) -> str:
    """The glossary page of an edition."""
    return f"{edition}/glossaire.html"


def glossary_anchor(term: str) -> str:
    """`First Strike` -> `G-first-strike`."""
    return "G-" + "-".join(re.findall(r"[a-z0-9]+", fold(term)))


def glossary_view(entry: dict[str, str], root: str) -> dict[str, str]:
    """A glossary entry found by a search (`judge search --json`'s `glossary` item), as the
    result pages show it: its link in the book (from `root`) and its definition, shortened
    as `judge search` prints it."""
    return {**entry, "url": glossary_url(entry["edition"], entry["term"], root), "short": short_definition(entry["text"])}


def glossary_url(edition: str, term: str, root: str) -> str:
    """A glossary entry's place in its edition's glossary page, from `root`."""
    return f"{root}{glossary_path(edition)}#{glossary_anchor(term)}"


def edition_path(edition: str, language: str | None = None) -> str:
    """Path of an edition's table of contents relative to the site root."""
    return f"{edition}/{language}/index.html" if language else f"{edition}/index.html"


def rule_redirect_path(rule: Rule, language: str | None = None) -> str:
    """Path of a rule's own URL in the static book (`2004/300.3.html`), a redirect page."""
    prefix = f"{rule.edition}/{language}/" if language else f"{rule.edition}/"
    return f"{prefix}{rule.number}.html"


def rule_url(rule: Rule, root: str = "", primary_language: str | None = None, part: str | None = None) -> str:
    """URL of a rule's anchor. Rules of a non-primary language live under `<edition>/<lang>/`;
    `part`: the rule's page in a split section (`702.19`, `judge.site.parts`), else its section's."""
    language = None if primary_language in (None, rule.language) else rule.language
    page = page_path(rule.edition, part or section_of(rule.number), language)
    return f"{root}{page}#{rule_anchor(rule.number)}"


def register_filters(env: jinja2.Environment) -> None:
    """Every filter the templates use, by name."""
    env.filters["rule_anchor"] = rule_anchor
    env.filters["rule_url"] = rule_url
    env.filters["section_of"] = section_of
    env.filters["page_path"] = page_path
    env.filters["edition_path"] = edition_path


# The book's assets whose names carry a digest of their content (`asset_name`).
FINGERPRINTED = ("style.css", "book.js", "rule-jump.js", "search-data.js", "search-match.js", "search.js",
                 "situation.js", "favicon.svg")


@lru_cache(maxsize=32)
def _fingerprint(name: str, mtime_ns: int) -> str:
    data = (templates_dir() / name).read_bytes()
    stem, _, suffix = name.rpartition(".")
    return f"{stem}.{hashlib.sha256(data).hexdigest()[:10]}.{suffix}"


def asset_name(name: str) -> str:
    """An asset's file name with a digest of its content (`style.css` ->
    `style.0123456789.css`): a name that never changes its content, cached as immutable."""
    if name not in FINGERPRINTED:
        raise ValueError(f"not a fingerprinted asset: {name}")
    return _fingerprint(name, (templates_dir() / name).stat().st_mtime_ns)


def compact_script(text: str) -> str:
    """A script as the static book ships it: without indentation, blank lines and the comments
    that fill whole lines (`//` lines, `/* … */` blocks that begin a line). The book's scripts
    hold no template literal (a line's leading spaces never belong to a string)."""
    out: list[str] = []
    in_comment = False
    for line in text.splitlines():
        stripped = line.strip()
        if not in_comment and stripped.startswith("/*"):
            in_comment, stripped = True, stripped[2:]
        if in_comment:
            if "*/" not in stripped:
                continue
            in_comment, stripped = False, stripped.split("*/", 1)[1].strip()
        if stripped and not stripped.startswith("//"):
            out.append(stripped)
    return "\n".join(out) + "\n"


def make_environment(**globals_: Any) -> jinja2.Environment:
    """A fresh environment on `templates_dir()`; keyword arguments become template globals."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir())),
        autoescape=jinja2.select_autoescape(["html", "htm", "xml", "svg"], default_for_string=True),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    register_filters(env)
    env.globals.update(site_name="Juge — Règles de Magic", served=False, combat_points=COMBAT_POINT_WORDS,
                       asset=asset_name, app_url=None, number_grammar=typed_grammar_json(),
                       language_name=language_name)
    env.globals.update(globals_)
    return env
