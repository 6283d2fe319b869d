"""Reading the corpus manifest (`rules/manifest.toml`) and a user's configuration file.

The manifest names each edition, its languages and their source files in order. A user's
configuration (`--config FILE` or `$JUDGE_CONFIG`, never a file nobody named) adds texts or
editions without touching the installed package; ids and languages are names, never paths. Errors name the file and the field path, in French.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from judge.corpus.documents import Edition, Text
from judge.errors import ManifestError, cut
from judge.resources import rules_dir

_EDITION_KEYS = {"id", "label", "released", "description", "removed", "removed_by", "text", "game", "default"}
# An edition id or a language becomes a folder name of the site: a name, never a path.
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")
NAME_MAX = 40
_TEXT_KEYS = {"language", "files", "origin"}
_USER_TEXT_KEYS = {"edition", "language", "path", "files", "origin"}


def _read_toml(path: Path) -> dict[str, Any]:
    """A manifest or configuration: a regular file of at most `MAX_CONFIG_BYTES` (the
    manifest: a rule text's cap), UTF-8 TOML checked for depth before it is parsed."""
    from judge.inputs import (
        MAX_CONFIG_BYTES,
        MAX_RULE_TEXT_BYTES,
        InputError,
        decode_utf8,
        parse_toml,
        read_regular,
    )

    cap = MAX_RULE_TEXT_BYTES if path == rules_dir() / "manifest.toml" else MAX_CONFIG_BYTES
    try:
        return parse_toml(decode_utf8(read_regular(str(path), cap), str(path)), str(path))
    except InputError as exc:
        raise ManifestError(exc.path, "", exc.reason) from None


def _string(value: object, path: Path, field: str, *, optional: bool = False) -> str | None:
    if value is None and optional:
        return None
    if not isinstance(value, str) or not value.strip():
        raise ManifestError(str(path), field, "une chaîne non vide est attendue")
    return value


def _name(value: object, path: Path, field: str) -> str:
    """An edition id or a language: letters, digits, `-` and `_` (it names a folder of the site)."""
    text = _string(value, path, field) or ""
    if len(text) > NAME_MAX or not NAME.fullmatch(text):
        raise ManifestError(str(path), field, f"« {cut(text)} » n'est pas un nom valide (lettres, chiffres, "
                            f"« - » et « _ », {NAME_MAX} caractères au plus, sans / ni ..)")
    return text


def _strings(value: object, path: Path, field: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise ManifestError(str(path), field, "une liste de chaînes est attendue")
    return tuple(value)


def _files(names: tuple[str, ...], base: Path, path: Path, field: str) -> tuple[str, ...]:
    out = []
    for i, name in enumerate(names):
        file = (base / name).resolve()
        if file.is_dir():
            raise ManifestError(str(path), f"{field}[{i}]", f"{file} est un dossier, pas un fichier")
        if not file.is_file():
            reason = "n'est pas un fichier ordinaire" if file.exists() else "fichier introuvable"
            raise ManifestError(str(path), f"{field}[{i}]", f"{reason} : {file}")
        out.append(str(file))
    return tuple(out)


def _text(raw: object, base: Path, path: Path, field: str) -> Text:
    if not isinstance(raw, dict):
        raise ManifestError(str(path), field, "une table est attendue")
    unknown = sorted(set(raw) - _TEXT_KEYS)
    if unknown:
        raise ManifestError(str(path), f"{field}.{unknown[0]}", "clé inconnue")
    language = _name(raw.get("language"), path, f"{field}.language")
    files = _files(_strings(raw.get("files"), path, f"{field}.files"), base, path, f"{field}.files")
    origin = _string(raw.get("origin"), path, f"{field}.origin", optional=True) or ""
    return Text(language=language, files=files, origin=origin)


def _edition(raw: object, base: Path, path: Path, field: str, *, from_config: bool = False) -> Edition:
    if not isinstance(raw, dict):
        raise ManifestError(str(path), field, "une table est attendue")
    unknown = sorted(set(raw) - _EDITION_KEYS)
    if unknown:
        raise ManifestError(str(path), f"{field}.{unknown[0]}", "clé inconnue")
    edition_id = _name(raw.get("id"), path, f"{field}.id")
    default = raw.get("default", False)
    if not isinstance(default, bool):
        raise ManifestError(str(path), f"{field}.default", "true ou false est attendu")
    texts_raw = raw.get("text", [])
    if not isinstance(texts_raw, list) or not texts_raw:
        raise ManifestError(str(path), f"{field}.text", "au moins un texte est attendu")
    return Edition(
        id=edition_id,
        label=_string(raw.get("label", raw.get("id")), path, f"{field}.label") or "",
        released=_string(raw.get("released"), path, f"{field}.released", optional=True),
        description=_string(raw.get("description"), path, f"{field}.description", optional=True)
        or "",
        texts=tuple(_text(t, base, path, f"{field}.text[{i}]") for i, t in enumerate(texts_raw)),
        removed=_strings(raw.get("removed", []), path, f"{field}.removed"),
        removed_by=_string(raw.get("removed_by"), path, f"{field}.removed_by", optional=True) or "",
        game=_game(raw.get("game"), base, path, f"{field}.game"),
        from_config=from_config,
        default=default,
    )


def _game(value: object, base: Path, path: Path, field: str) -> str | None:
    """A model id (`2004`: `rules/games/2004.toml`) or a `.toml` file relative to the manifest."""
    game = _string(value, path, field, optional=True)
    if game is None or not game.endswith(".toml"):
        return game
    file = (base / game).resolve()
    if not file.is_file():
        raise ManifestError(str(path), field, f"modèle de jeu introuvable : {file}")
    return str(file)


def load_manifest(path: Path | None = None) -> tuple[Edition, ...]:
    """The embedded editions (or those of another manifest file)."""
    manifest = path or rules_dir() / "manifest.toml"
    data = _read_toml(manifest)
    unknown = sorted(set(data) - {"edition"})
    if unknown:
        raise ManifestError(str(manifest), unknown[0], "clé inconnue")
    editions = data.get("edition")
    if not isinstance(editions, list) or not editions:
        raise ManifestError(str(manifest), "edition", "au moins une édition est attendue")
    out = tuple(
        _edition(e, manifest.parent, manifest, f"edition[{i}]") for i, e in enumerate(editions)
    )
    _check_unique(out, manifest)
    return out


def _check_unique(editions: tuple[Edition, ...], path: Path) -> None:
    seen: set[str] = set()
    for i, edition in enumerate(editions):
        if edition.id in seen:
            raise ManifestError(str(path), f"edition[{i}].id", f"édition « {edition.id} » en double")
        seen.add(edition.id)


def apply_config(editions: tuple[Edition, ...], config: Path) -> tuple[Edition, ...]:
    """Add a user's texts (`[[text]]`) and editions (`[[edition]]`) to the embedded ones."""
    data = _read_toml(config)
    unknown = sorted(set(data) - {"text", "edition"})
    if unknown:
        raise ManifestError(str(config), unknown[0], "clé inconnue (attendu : text, edition)")
    by_id = {e.id: e for e in editions}
    order = [e.id for e in editions]
    for i, raw in enumerate(data.get("edition", [])):
        edition = _edition(raw, config.parent, config, f"edition[{i}]", from_config=True)
        if edition.id in by_id:
            raise ManifestError(str(config), f"edition[{i}].id", f"l'édition « {edition.id} » existe déjà")
        by_id[edition.id] = edition
        order.append(edition.id)
    texts = data.get("text", [])
    if not isinstance(texts, list):
        raise ManifestError(str(config), "text", "une liste de tables est attendue")
    for i, raw in enumerate(texts):
        field = f"text[{i}]"
        if not isinstance(raw, dict):
            raise ManifestError(str(config), field, "une table est attendue")
        bad = sorted(set(raw) - _USER_TEXT_KEYS)
        if bad:
            raise ManifestError(str(config), f"{field}.{bad[0]}", "clé inconnue")
        edition_id = _string(raw.get("edition"), config, f"{field}.edition") or ""
        if edition_id not in by_id:
            raise ManifestError(
                str(config), f"{field}.edition", f"édition inconnue « {edition_id} » ({', '.join(order)})"
            )
        names = (
            (_string(raw.get("path"), config, f"{field}.path") or "",)
            if "path" in raw
            else _strings(raw.get("files"), config, f"{field}.files")
        )
        text = Text(
            language=_name(raw.get("language"), config, f"{field}.language"),
            files=_files(names, config.parent, config, f"{field}.path"),
            origin=_string(raw.get("origin"), config, f"{field}.origin", optional=True) or str(config),
        )
        edition = by_id[edition_id]
        if text.language in edition.languages:
            raise ManifestError(
                str(config), f"{field}.language",
                f"l'édition {edition_id} a déjà un texte en « {text.language} »",
            )
        by_id[edition_id] = _with_text(edition, text)
    defaults = [i for i in order if by_id[i].default]
    if len(defaults) > 1:
        raise ManifestError(str(config), "edition.default", f"une seule édition par défaut ({', '.join(defaults)})")
    return tuple(by_id[i] for i in order)


def _with_text(edition: Edition, text: Text) -> Edition:
    return replace(edition, texts=(*edition.texts, text))
