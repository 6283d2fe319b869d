"""A user's input files, bounded: the caps (one place), regular files read without blocking,
TOML and JSON checked for depth and number sizes before they are parsed, parser errors in French.

Every cap is documented in `docs/situation-format.md` (« Limites »). A FIFO, a device or a
folder is refused before any read (opened with `O_NONBLOCK`, then `fstat`); a file over its
cap is refused without reading it all; nesting, dotted keys and long integers are counted by a
cheap scan of the text (strings and comments blanked), so the parsers never recurse or loop
past them.
"""

from __future__ import annotations

import os
import re
import stat

from judge.errors import JudgeError, cut, os_reason

# -- the caps ------------------------------------------------------------------------
MIB = 1024 * 1024
MAX_RULE_TEXT_BYTES = 16 * MIB  # a rule text (`judge parse`, a configured text)
MAX_SITUATION_BYTES = 1 * MIB  # a situation file or standard input (`judge check`)
MAX_CONFIG_BYTES = 1 * MIB  # a configuration file (`--config`, `$JUDGE_CONFIG`)
MAX_NESTING = 64  # arrays and tables inside each other, TOML or JSON
MAX_KEY_DEPTH = 16  # parts of one dotted TOML key or table header (`a.b.c`: 3)
MAX_NUMBER_DIGITS = 30  # digits of one number (Python refuses to read ints over 4,300)
MAX_EXTRA_STEPS = 64  # `extra_steps` of a situation
MAX_EXTRA_PHASES = 64  # `extra_phases` of a situation
MAX_TRIGGERS = 256  # `triggers` and `pending_triggers`, each
MAX_LIST_ITEMS = 10_000  # any other list of a situation
MAX_SITUATION_WORK = 8 * MIB  # situation bytes × questions asked (each question replays it)
MAX_QUOTED = 80  # characters of a user's input quoted in a message


class InputError(JudgeError):
    """A user's file that is not read: not a regular file, too big, too deep (exit 2)."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path} : {reason}" if path else reason)
        self.path = path
        self.reason = reason


def _size(n: int) -> str:
    return f"{n / MIB:.1f} Mo".replace(".", ",") if n >= MIB else f"{n} octets"


def read_regular(path: str, cap: int) -> bytes:
    """The bytes of `path`, a regular file of at most `cap` bytes; anything else (missing,
    folder, FIFO, device, too big, unreadable) is an `InputError` in French."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise InputError(path, "fichier introuvable") from None
    except IsADirectoryError:
        raise InputError(path, "est un dossier, pas un fichier") from None
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
        raise InputError(path, os_reason(exc) if isinstance(exc, OSError) else "nom de fichier invalide") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise InputError(path, "est un dossier, pas un fichier")
        if not stat.S_ISREG(info.st_mode):
            raise InputError(path, "n'est pas un fichier ordinaire (tube, périphérique ou socket) : refusé")
        if info.st_size > cap:
            raise InputError(path, f"fichier trop grand ({_size(info.st_size)} ; au plus {_size(cap)})")
        os.set_blocking(fd, True)
        chunks: list[bytes] = []
        total = 0
        while True:
            chunk = os.read(fd, min(cap + 1 - total, MIB))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > cap:
                raise InputError(path, f"fichier trop grand (plus de {_size(cap)})")
        return b"".join(chunks)
    except OSError as exc:
        raise InputError(path, os_reason(exc)) from None
    finally:
        os.close(fd)


def read_bounded_stream(stream: object, cap: int, name: str = "entrée standard") -> bytes:
    """At most `cap` bytes of a binary stream (standard input); more is an `InputError`."""
    read = getattr(stream, "read")  # noqa: B009 - any object with read(n)
    data: bytes = read(cap + 1)
    if len(data) > cap:
        raise InputError(name, f"trop grand (plus de {_size(cap)})")
    return data


def decode_utf8(data: bytes, path: str) -> str:
    """UTF-8 (a BOM allowed); no lone surrogate can come from valid UTF-8."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(path, f"pas en UTF-8 (octet invalide ligne {line})") from None


# -- structure, before parsing ---------------------------------------------------------
# A string is `"`, runs of plain characters between escapes, then `"` or, unterminated, the
# end of its line (TOML) or of the text (JSON): possessive runs, and a match at every opening
# quote, so the scan never goes back (an unterminated string of `\"` read once, not from each
# of its quotes). A string left open is blanked to its end: the parser will refuse it.
_TOML_BLANK = re.compile(
    r'"""[\s\S]*?(?:"""|\Z)|\'\'\'[\s\S]*?(?:\'\'\'|\Z)'
    r'|"(?:[^"\\\n]++|\\[^\n])*+(?:"|\\?(?=\n)|\\?\Z)|\'[^\'\n]*+(?:\'|(?=\n)|\Z)|#[^\n]*+'
)
_JSON_BLANK = re.compile(r'"(?:[^"\\]++|\\[\s\S])*+(?:"|\\?\Z)')
_BRACKETS = re.compile(r"[^\[\]{}]+")
# A key starts where no key character precedes it, and is read possessively: each of its
# characters read once (not again from each of them, as a word of a megabyte would be).
_DOTTED = re.compile(rf"(?<![A-Za-z0-9_.-])(?<!\.[ \t])[A-Za-z0-9_-]++(?:[ \t]*+\.[ \t]*+[A-Za-z0-9_-]++){{{MAX_KEY_DEPTH},}}")
_LONG_NUMBER = re.compile(rf"(?<![0-9_])[0-9][0-9_]{{{MAX_NUMBER_DIGITS},}}")
# The bytes of a number's characters (digits and `_`) as 1, any other as 0: a long number needs
# a run of them, found by a bytes search faster than the regular expression's scan.
_NUMBER_BYTES = bytes(int(chr(b) in "0123456789_") for b in range(256))
_NUMBER_RUN = b"\x01" * (MAX_NUMBER_DIGITS + 1)
_DEPTH = {"[": 1, "{": 1, "]": -1, "}": -1}
# A surrogate, or the JSON escape of one (TOML refuses such escapes).
_SURROGATE = re.compile(r"[\ud800-\udfff]")
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89abcdefABCDEF]")


def structure_problem(text: str, fmt: str) -> str | None:
    """Why `text` (TOML or JSON) must not be parsed: nesting over `MAX_NESTING`, a dotted key
    over `MAX_KEY_DEPTH` parts, a number over `MAX_NUMBER_DIGITS` digits; None if it may be.
    Strings and comments are blanked first (one `s` each), so what they hold never counts.
    Blanking only takes characters away: JSON text whose brackets and digits, strings
    included, are within the bounds is within them without its strings (not blanked)."""
    if fmt == "json" and (text.count("[") + text.count("{") <= MAX_NESTING + 1
                          and not _long_number(text)):
        return None
    blank = (_JSON_BLANK if fmt == "json" else _TOML_BLANK).sub("s", text)
    brackets = _BRACKETS.sub("", blank)
    depth = deepest = 0
    # nesting can go no deeper than the number of opening brackets: counted only when it could
    if brackets.count("[") + brackets.count("{") > MAX_NESTING + 1:
        for ch in brackets:
            depth = max(depth + _DEPTH[ch], 0)
            deepest = max(deepest, depth)
    # TOML table headers nest too: `[[a]]` counts one bracket level more, `[a.b]` by its key.
    if deepest > MAX_NESTING + 1:
        return f"imbrication trop profonde (plus de {MAX_NESTING} niveaux de listes ou de tables)"
    if fmt != "json" and _DOTTED.search(blank):
        return f"clé pointée trop longue (plus de {MAX_KEY_DEPTH} parties, comme a.b.c)"
    if _long_number(blank):
        return f"nombre trop long (plus de {MAX_NUMBER_DIGITS} chiffres)"
    return None


def _long_number(text: str) -> bool:
    """Whether `text` holds a number of over `MAX_NUMBER_DIGITS` digits (`_` between them)."""
    # In UTF-8 a digit or `_` is one byte, and no byte of another character is one of theirs.
    runs = text.encode("utf-8", "surrogatepass").translate(_NUMBER_BYTES)
    return _NUMBER_RUN in runs and _LONG_NUMBER.search(text) is not None


def has_surrogate(data: object, text: str | None = None) -> bool:
    """Whether parsed data holds a lone surrogate (JSON's `"\\ud800"`): it cannot be printed.
    Given the `text` it was parsed from, the data is searched only when the text holds a
    surrogate or a `\\uD800`–`\\uDFFF` escape (the only ways to write one)."""
    if text is not None and not _SURROGATE_ESCAPE.search(text) and (
            text.isascii() or not _SURROGATE.search(text)):
        return False
    import json  # only when the data is searched

    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return True
    except (ValueError, TypeError, RecursionError):
        return False
    return False


# -- parser errors in French -------------------------------------------------------------
_TOML_REASONS = {
    "Invalid value": "valeur invalide",
    "Invalid statement": "instruction invalide",
    "Expected '=' after a key in a key/value pair": "« = » attendu après la clé",
    "Cannot overwrite a value": "clé définie deux fois",
    "Cannot declare": "table déclarée deux fois",
    "Unterminated string": "chaîne non terminée",
    "Illegal character": "caractère interdit",
    "Invalid initial character for a key part": "caractère initial de clé invalide",
    "Expected newline or end of document after a statement": (
        "fin de ligne attendue après une instruction"
    ),
    "Unclosed array": "liste non fermée",
    "Unclosed inline table": "table en ligne non fermée",
    "Expected ']' at the end of a table declaration": "« ] » attendu à la fin d'une déclaration de table",
    "Expected ']]' at the end of an array declaration": "« ]] » attendu à la fin d'une liste de tables",
    "Expected": "caractère attendu manquant",
    "Found invalid character": "caractère invalide",
    "Cannot mutate immutable namespace": "table en ligne non modifiable",
    "Cannot redefine namespace": "table redéfinie",
    "Duplicate inline table key": "clé en double dans une table en ligne",
    "Unescaped '\\' in a string": "« \\ » non échappé dans une chaîne",
    "Invalid hex value": "valeur hexadécimale invalide",
    "Escaped character is not a Unicode scalar value": "caractère échappé invalide",
    "Invalid date or datetime": "date ou heure invalide",
}


def toml_position(message: str, text: str) -> tuple[int, int, str]:
    """Line, column and French reason of a `tomllib.TOMLDecodeError` message."""
    match = re.search(r"\(at line (\d+), column (\d+)\)", message)
    head = re.sub(r"\s*\(at .*\)$", "", message)
    reason = next(
        (french for english, french in _TOML_REASONS.items() if head.startswith(english)),
        "syntaxe invalide",
    )
    if match:
        return int(match.group(1)), int(match.group(2)), reason
    lines = text.splitlines() or [""]
    return len(lines), len(lines[-1]) + 1, reason  # "at end of document"


def parse_toml(text: str, path: str) -> dict[str, object]:
    """TOML checked by `structure_problem`, then parsed; every failure an `InputError` in
    French, with line and column for a syntax error."""
    import tomllib

    problem = structure_problem(text, "toml")
    if problem:
        raise InputError(path, problem)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line, column, reason = toml_position(str(exc), text)
        raise InputError(f"{path}:{line}:{column}", f"TOML invalide : {reason}") from None
    except (ValueError, RecursionError, MemoryError):
        raise InputError(path, "TOML refusé (nombre trop long ou imbrication trop profonde)") from None
    if has_surrogate(data):
        raise InputError(path, "caractère invalide (demi-paire de substitution, comme \\ud800)")
    return data


__all__ = ["InputError", "cut"]
