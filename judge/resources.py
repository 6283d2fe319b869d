"""Where the embedded corpus and the templates are, installed or in a source checkout.

An installed package carries them as `judge/_rules` and `judge/_templates` (see
pyproject.toml); a source checkout has them at the top level as `rules/` and `templates/`.
Plain `os.path` strings here, `Path`s on request.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

_PACKAGE = os.path.dirname(os.path.realpath(__file__))


def _first_existing(*candidates: str) -> str:
    for candidate in candidates:
        if os.path.isdir(candidate):
            return candidate
    return candidates[-1]


def rules_folder() -> str:
    """The folder holding the embedded rule texts and `manifest.toml`, as a string."""
    return _first_existing(os.path.join(_PACKAGE, "_rules"), os.path.join(os.path.dirname(_PACKAGE), "rules"))


def rules_dir() -> Path:
    """The folder holding the embedded rule texts and `manifest.toml`."""
    from pathlib import Path

    return Path(rules_folder())


def templates_dir() -> Path:
    """The folder holding the Jinja2 templates."""
    from pathlib import Path

    return Path(_first_existing(os.path.join(_PACKAGE, "_templates"), os.path.join(os.path.dirname(_PACKAGE), "templates")))


def embedded(path: Path) -> bool:
    """True for a text of the embedded corpus (a file of `rules/`, as its publisher wrote it)."""
    try:
        path.resolve().relative_to(rules_dir().resolve())
    except ValueError:
        return False
    return True


def display_path(path: Path) -> str:
    """`rules/<name>` for an embedded text, the path as given otherwise."""
    return f"rules/{path.name}" if embedded(path) else str(path)
