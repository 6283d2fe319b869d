"""Reading rule texts as real files come: BOMs, UTF-8/UTF-16/cp1252, LF/CRLF/CR line ends.

Owns decoding and line-end normalisation only. The decoded text is kept as written
(apostrophes, non-breaking spaces); folding for matching lives in `judge.normalize`.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass
from pathlib import Path

from judge.errors import SourceError

_BOMS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
)


@dataclass(frozen=True, slots=True, kw_only=True)
class DecodedText:
    """A source file's text with `\\n` line ends, and the encoding it was read with."""

    text: str
    encoding: str


def decode(data: bytes, *, path: str = "<texte>") -> DecodedText:
    """Decode bytes by BOM, then strict UTF-8, then a UTF-16 guess, then cp1252."""
    encoding = _detect(data)
    if encoding is None:
        raise SourceError(path, "encodage non reconnu (ni UTF-8, ni UTF-16, ni cp1252)")
    start = 0
    for bom, name in _BOMS:
        if name == encoding and data.startswith(bom):
            start = len(bom)
    name = "utf-8" if encoding == "utf-8-sig" else encoding
    text = data[start:].decode(name)
    if "\x00" in text:
        raise SourceError(path, "fichier binaire (octet nul), pas un texte de règles")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return DecodedText(text=text, encoding=encoding)


def _detect(data: bytes) -> str | None:
    for bom, name in _BOMS:
        if data.startswith(bom):
            try:
                data[len(bom):].decode("utf-8" if name == "utf-8-sig" else name)
            except UnicodeDecodeError:
                return None
            return name
    if _looks_utf16(data):
        for name in ("utf-16-le", "utf-16-be"):
            try:
                decoded = data.decode(name)
            except UnicodeDecodeError:
                continue
            if "\x00" not in decoded:
                return name
    try:
        data.decode("utf-8")
        return "utf-8"
    except UnicodeDecodeError:
        pass
    try:
        data.decode("cp1252")
        return "cp1252"
    except UnicodeDecodeError:
        return None


def _looks_utf16(data: bytes) -> bool:
    """BOM-less UTF-16 of mostly-Latin text has a NUL in every other byte."""
    sample = data[:4096]
    if len(sample) < 4:
        return False
    even = sample[0::2].count(0)
    odd = sample[1::2].count(0)
    half = len(sample) // 2
    return max(even, odd) > half * 0.4 and min(even, odd) < half * 0.05


def read_text(path: str | Path) -> DecodedText:
    """Read and decode a rule text file (a regular file of at most `MAX_RULE_TEXT_BYTES`);
    unreadable files raise `SourceError` in French."""
    from judge.inputs import MAX_RULE_TEXT_BYTES, InputError, read_regular

    try:
        data = read_regular(str(path), MAX_RULE_TEXT_BYTES)
    except InputError as exc:
        raise SourceError(str(path), exc.reason) from None
    return decode(data, path=str(path))
