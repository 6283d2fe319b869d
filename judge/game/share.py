"""Writing a situation back: as TOML or JSON text, and as a URL-safe token (the permalink
of `judge serve`, `/situation?s=…`, and the rule pages' pre-filled form links).

Owns the TOML writer for situation data (the subset docs/situation-format.md uses: strings,
integers, booleans, lists of them, tables of counts, arrays of tables) and the URL-safe
encoding of the permalink: compact JSON in base64url, so the URL stays plain ASCII.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Mapping
from typing import Any

from judge.errors import JudgeError

# Within the server's URL limit (judge.web.refusals.MAX_URL) with room for the path.
MAX_PERMALINK = 3500


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"valeur non représentable en TOML : {value!r}")


def _key(key: str) -> str:
    bare = key.replace("_", "").replace("-", "").isalnum() and key.isascii()
    return key if bare else json.dumps(key, ensure_ascii=False)


def _is_table_array(value: Any) -> bool:
    return isinstance(value, (list, tuple)) and bool(value) and all(isinstance(v, Mapping) for v in value)


def to_toml(data: Mapping[str, Any]) -> str:
    """A situation dict as a TOML document `judge check` reads back to the same data."""
    lines = [f"{_key(k)} = {_value(v)}" for k, v in data.items()
             if v is not None and not (_is_table_array(v) and k in ("creatures", "questions"))]
    for key in ("creatures", "questions"):
        for item in data.get(key) or ():
            lines += ["", f"[[{key}]]"]
            lines += [f"{_key(k)} = {_value(v)}" for k, v in item.items() if v is not None]
    return "\n".join(lines) + "\n"


def to_json(data: Mapping[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def encode_permalink(data: Mapping[str, Any]) -> str | None:
    """The `s` parameter for this situation, None if it would make the URL too long."""
    raw = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    token = base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")
    return token if len(token) <= MAX_PERMALINK else None


def decode_permalink(token: str) -> str:
    """The situation JSON text a permalink carries; a French error if it is not base64url
    UTF-8 text. The text itself is read by `judge.game.situation.parse_situation_text`, the
    one path of every situation text (its bounds checked before parsing)."""
    if len(token) > MAX_PERMALINK:
        raise JudgeError(f"lien de situation trop long ({len(token)} caractères, {MAX_PERMALINK} au plus)")
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        text = raw.decode("utf-8")
    except (binascii.Error, ValueError):
        raise JudgeError("lien de situation illisible (paramètre s)") from None
    return text
