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
            f"édition inconnue : « {cut(edition)} » (éditions disponibles : {', '.join(known)})"
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


# French words for the operating system's errors a user meets (`OSError.errno`): the system's
# own `strerror` is English.
_OS_REASONS = {
    "ENOENT": "fichier ou dossier introuvable",
    "EISDIR": "c'est un dossier, pas un fichier",
    "ENOTDIR": "un élément du chemin n'est pas un dossier",
    "EACCES": "permission refusée",
    "EPERM": "opération non permise",
    "ENOSPC": "plus de place sur le disque",
    "EDQUOT": "quota de disque dépassé",
    "EROFS": "système de fichiers en lecture seule",
    "EEXIST": "le fichier existe déjà",
    "ENOTEMPTY": "le dossier n'est pas vide",
    "ENAMETOOLONG": "nom de fichier trop long",
    "ELOOP": "trop de liens symboliques",
    "EMFILE": "trop de fichiers ouverts",
    "ENFILE": "trop de fichiers ouverts",
    "EIO": "erreur d'entrée-sortie",
    "ENXIO": "périphérique absent",
    "ENODEV": "périphérique absent",
    "EAGAIN": "ressource momentanément indisponible",
    "EPIPE": "la sortie a été fermée",
    "EFBIG": "fichier trop grand",
    "EBUSY": "ressource occupée",
    "EXDEV": "déplacement entre deux systèmes de fichiers impossible",
    "EADDRINUSE": "adresse déjà utilisée",
    "EADDRNOTAVAIL": "adresse indisponible sur cette machine",
}


def os_reason(exc: OSError) -> str:
    """An operating system error in French (its errno's name when no French words are known)."""
    import errno

    name = errno.errorcode.get(exc.errno or 0, "")
    return _OS_REASONS.get(name) or (f"erreur système {name}" if name else "erreur système")


_SQLITE_REASONS = {
    "file is not a database": "ce n'est pas une base SQLite",
    "database disk image is malformed": "base SQLite abîmée",
    "database is locked": "base SQLite verrouillée par un autre programme",
    "unable to open database file": "impossible d'ouvrir la base",
    "disk I/O error": "erreur d'entrée-sortie du disque",
    "database or disk is full": "disque plein",
    "attempt to write a readonly database": "base en lecture seule",
}


def sqlite_reason(exc: Exception) -> str:
    """A SQLite error in French (its English words never shown)."""
    text = str(exc)
    return next((french for english, french in _SQLITE_REASONS.items() if english in text), "erreur SQLite")


def cut(text: str, limit: int = 80) -> str:
    """A user's input quoted in a message: at most `limit` characters (then « … »)."""
    return text if len(text) <= limit else text[:limit] + "…"
