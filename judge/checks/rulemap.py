"""Which executable checks implement which rule, without importing the checks at start-up.

`judge rule` shows the checks of a rule; importing the checker costs a cold start tens of
milliseconds, so the mapping is cached on disk, keyed by the checker's source files.
"""

from __future__ import annotations

from judge.cache import cache_dir, code_digest, read_pickle, write_pickle
from judge.corpus.export import ChecksFor


def _build() -> dict[tuple[str, str], tuple[str, ...]]:
    from judge.checks import catalog  # noqa: F401  (importing it registers every check)
    from judge.checks.context import REGISTRY

    mapping: dict[tuple[str, str], list[str]] = {}
    for spec in REGISTRY.values():
        for edition, numbers in spec.rules.items():
            for number in numbers:
                mapping.setdefault((edition, number), []).append(spec.name)
    return {k: tuple(v) for k, v in mapping.items()}


def load_checks_for() -> ChecksFor:
    """`checks_for(edition, number)` backed by the on-disk map (built once per checker version)."""
    path = cache_dir() / f"checks-{code_digest('checks', 'game').hexdigest()}.pickle"
    mapping = read_pickle(path)
    if not isinstance(mapping, dict):
        mapping = _build()
        write_pickle(path, mapping)

    def checks_for(edition: str, number: str) -> tuple[str, ...]:
        return tuple(mapping.get((edition, number), ()))

    return checks_for
