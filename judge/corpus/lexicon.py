"""The FR↔EN terminology of game terms (`rules/glossary-fr-en.toml`): each notion's names, rules
and acronyms.

Data, read once per process (its parsed TOML cached in the knowledge base,
`judge.corpus.tomlcache`): search expands a query with it, lint and the rule views use it to
tell whether a citation's words name the cited rule in the other language of a release.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from judge.errors import JudgeError
from judge.resources import rules_dir

if TYPE_CHECKING:
    from pathlib import Path

GLOSSARY_NAME = "glossary-fr-en.toml"


@dataclass(frozen=True, slots=True, kw_only=True)
class GlossaryTerm:
    """One notion of the FR↔EN terminology: its English and French names, the rules that
    define it ("edition:number"), its acronyms, whether it is a variant of the game
    (multiplayer, casual variants: its rules refine the general ones) and where it comes from."""

    en: tuple[str, ...]
    fr: tuple[str, ...]
    rules: tuple[str, ...] = ()
    acronyms: tuple[str, ...] = ()
    variant: bool = False
    source: str = ""

    def names(self, language: str | None = None) -> tuple[str, ...]:
        """Its names in one language (`fr`, `en`), or in both."""
        if language == "fr":
            return self.fr
        if language == "en":
            return self.en
        return (*self.en, *self.fr)


def load_glossary(path: Path | None = None) -> tuple[GlossaryTerm, ...]:
    """The entries of `rules/glossary-fr-en.toml` (or `path`)."""
    from judge.corpus.tomlcache import toml_data
    from judge.errors import ManifestError

    path = path or rules_dir() / GLOSSARY_NAME
    try:
        data = toml_data(str(path))
    except ManifestError as exc:
        raise JudgeError(f"{path} : glossaire illisible ({exc.reason})") from None
    try:
        return _terms(path, data)
    except JudgeError:
        # The cached tables may be a stray or planted value: the file decides, parsed again
        # (its part written over), and only its own fault is reported.
        try:
            data = toml_data(str(path), cached=False)
        except ManifestError as exc:
            raise JudgeError(f"{path} : glossaire illisible ({exc.reason})") from None
        return _terms(path, data)


def _terms(path: Path, data: dict[str, object]) -> tuple[GlossaryTerm, ...]:
    found = data.get("term", [])
    terms = []
    for i, raw in enumerate(found if isinstance(found, list) else ()):
        if not isinstance(raw, dict):
            raise JudgeError(f"{path} (term[{i}]) : table attendue")
        en, fr = raw.get("en", []), raw.get("fr", [])
        if not isinstance(en, list) or not isinstance(fr, list) or not fr:
            raise JudgeError(f"{path} (term[{i}]) : listes « en » et « fr » attendues")
        rules, acronyms = raw.get("rules", []), raw.get("acronyms", [])
        if not isinstance(rules, list) or not isinstance(acronyms, list):
            raise JudgeError(f"{path} (term[{i}]) : listes « rules » et « acronyms » attendues")
        terms.append(GlossaryTerm(en=tuple(map(str, en)), fr=tuple(map(str, fr)), rules=tuple(map(str, rules)),
                                  acronyms=tuple(map(str, acronyms)), variant=raw.get("variant") is True,
                                  source=str(raw.get("source", ""))))
    return tuple(terms)


@lru_cache(maxsize=1)
def glossary() -> tuple[GlossaryTerm, ...]:
    """The embedded glossary, read once."""
    return load_glossary()
