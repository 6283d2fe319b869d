"""Which executable checks implement which rule, without importing the checks at start-up.

`judge rule` shows the checks of a rule; importing the checker costs a cold start tens of
milliseconds, so the mapping is cached on disk, keyed by the checker's source files.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from . import __version__
from .corpus import _digest, _read_cache, _write_cache, cache_dir

_SOURCES = ("checks.py", "check_context.py", "checks_turn.py", "checks_combat.py",
            "check_reasons.py", "checker.py", "replay.py", "turn.py", "situation.py")
ChecksFor = Callable[[str, str], tuple[str, ...]]


def _build() -> dict[tuple[str, str], tuple[str, ...]]:
    from .checker import checks_for  # noqa: F401  (importing it registers every check)
    from .checks import REGISTRY

    mapping: dict[tuple[str, str], list[str]] = {}
    for spec in REGISTRY.values():
        for edition, numbers in spec.rules.items():
            for number in numbers:
                mapping.setdefault((edition, number), []).append(spec.name)
    return {k: tuple(v) for k, v in mapping.items()}


def load_checks_for() -> ChecksFor:
    """`checks_for(edition, number)` backed by the on-disk map (built once per checker version)."""
    package = Path(__file__).resolve().parent
    digest = _digest(__version__.encode() + b"".join((package / n).read_bytes() for n in _SOURCES))
    path = cache_dir() / f"checks-{digest.hexdigest()}.pickle"
    mapping = _read_cache(path)
    if not isinstance(mapping, dict):
        mapping = _build()
        _write_cache(path, mapping)

    def checks_for(edition: str, number: str) -> tuple[str, ...]:
        return tuple(mapping.get((edition, number), ()))

    return checks_for
