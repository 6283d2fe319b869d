"""Where the embedded corpus and the templates are, installed or in a source checkout.

An installed package carries them as `judge/_rules` and `judge/_templates` (see
pyproject.toml); a source checkout has them at the top level as `rules/` and `templates/`.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def _first_existing(*candidates: Path) -> Path:
    for candidate in candidates:
        if candidate.is_dir():
            return candidate
    return candidates[-1]


def rules_dir() -> Path:
    """The folder holding the embedded rule texts and `manifest.toml`."""
    return _first_existing(_PACKAGE / "_rules", _PACKAGE.parent / "rules")


def templates_dir() -> Path:
    """The folder holding the Jinja2 templates."""
    return _first_existing(_PACKAGE / "_templates", _PACKAGE.parent / "templates")


def display_path(path: Path) -> str:
    """`rules/<name>` for an embedded text, the path as given otherwise."""
    try:
        path.resolve().relative_to(rules_dir().resolve())
    except ValueError:
        return str(path)
    return f"rules/{path.name}"
