"""The exception tree: one root `JudgeError`, leaves with structured fields and French messages.

Broken references and lint results are findings (see `judge.corpus.lint`), not exceptions.
The CLI turns any `JudgeError` into a message on stderr and `exit_code`.
"""

from __future__ import annotations


class JudgeError(Exception):
    """Root of every error the tool reports to a user."""

    exit_code = 2

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class SourceError(JudgeError):
    """A rule text that cannot be read or decoded."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path} : {reason}")
        self.path = path
        self.reason = reason


class RuleSyntaxError(JudgeError):
    """The grammar could not place something: file, line, column and a caret."""

    def __init__(self, path: str, line: int, column: int, source_line: str, reason: str) -> None:
        caret = " " * max(column - 1, 0) + "^"
        super().__init__(
            f"{path}:{line}:{column}: erreur de syntaxe : {reason}\n  {source_line}\n  {caret}"
        )
        self.path = path
        self.line = line
        self.column = column
        self.source_line = source_line
        self.reason = reason


class ManifestError(JudgeError):
    """A corpus manifest or user configuration that is malformed."""

    def __init__(self, path: str, field: str, reason: str) -> None:
        where = f"{path} ({field})" if field else path
        super().__init__(f"{where} : {reason}")
        self.path = path
        self.field = field
        self.reason = reason


class NotFound(JudgeError):
    """An edition or rule number that is not in the corpus."""

    exit_code = 1


class UnknownEdition(JudgeError):
    """An edition id that no manifest names (a usage mistake: exit 2)."""

    def __init__(self, edition: str, known: tuple[str, ...]) -> None:
        super().__init__(
            f"édition inconnue : « {edition} » (éditions disponibles : {', '.join(known)})"
        )
        self.edition = edition


class SituationError(JudgeError):
    """A described situation with a wrong field, named by its path."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field} : {reason}" if field else reason)
        self.field = field
        self.reason = reason


class IllegalEvent(JudgeError):
    """A replayed event that the rules forbid: names the event index and the rule."""

    def __init__(self, index: int, reason: str, rule: str | None = None) -> None:
        cite = f" ({'règles' if rule and ',' in rule else 'règle'} {rule})" if rule else ""
        super().__init__(f"events[{index}] : {reason}{cite}")
        self.index = index
        self.reason = reason
        self.rule = rule


class CacheError(JudgeError):
    """A cache file found corrupt while it was read (past the checks made when it was opened):
    it is removed, and rebuilt at the next start."""

    exit_code = 3

    def __init__(self, path: str) -> None:
        super().__init__(f"cache illisible, supprimé : {path} — il sera reconstruit ; relancez la commande")
        self.path = path
