"""The writers' gold pairings of 2004 rules with 2010 rules, development or sealed half.

A writer's file (`bench/sealed/pairs/p1.toml`, `p2.toml`) lists `[[pair]]` tables in the order
of its list: `from` (2004 rule), `to` (2010 rules, most complete first; [] when removed),
`verdict` (kept, changed, removed, uncertain), quotes and a note. The split was decided before
writing: entries at 0-based even positions are the development half, odd positions the sealed
half. `load` drops the other half before anything else sees the entries, so that code reading
the development half never holds a sealed entry.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

Half = Literal["dev", "sealed"]
VERDICTS = ("kept", "changed", "removed", "uncertain")


@dataclass(frozen=True, slots=True, kw_only=True)
class GoldPair:
    """One writer's answer for one 2004 rule."""

    source: str
    targets: tuple[str, ...]
    verdict: str
    quote_from: str = ""
    quote_to: str = ""
    note: str = ""


def load(path: Path, half: Half = "dev") -> tuple[GoldPair, ...]:
    """The entries of one half of a writer's file (even positions: dev, odd: sealed)."""
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    rows = data.get("pair", [])
    if not isinstance(rows, list):
        raise ValueError(f"{path}: [[pair]] tables expected")
    kept = rows[0::2] if half == "dev" else rows[1::2]
    del rows, data  # nothing else of the file is kept
    out = []
    for raw in kept:
        targets = raw.get("to", [])
        if isinstance(targets, str):
            targets = [targets] if targets else []
        verdict = str(raw.get("verdict", "uncertain"))
        out.append(GoldPair(source=str(raw["from"]), targets=tuple(str(t) for t in targets),
                            verdict=verdict if verdict in VERDICTS else "uncertain",
                            quote_from=str(raw.get("quote_from", "")), quote_to=str(raw.get("quote_to", "")),
                            note=str(raw.get("note", ""))))
    return tuple(out)


def write_toml(pairs: tuple[GoldPair, ...], header: str) -> str:
    """The entries as `[[pair]]` tables (the format of the writers' files)."""
    import json

    def quoted(value: str) -> str:
        return json.dumps(value, ensure_ascii=False)

    lines = [header, ""]
    for pair in pairs:
        lines += ["[[pair]]", f"from = {quoted(pair.source)}",
                  f"to = [{', '.join(quoted(t) for t in pair.targets)}]", f"verdict = {quoted(pair.verdict)}",
                  f"quote_from = {quoted(pair.quote_from)}", f"quote_to = {quoted(pair.quote_to)}"]
        if pair.note:
            lines.append(f"note = {quoted(pair.note)}")
        lines.append("")
    return "\n".join(lines)
