"""judge: a French Magic: The Gathering rules-judge knowledge base and query tool.

Library first: `load_graph()` gives the cross-referenced rule graph of the embedded corpus;
the `judge` command (`cli.py`) is a thin client of these functions.
"""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["__version__", "load_graph"]


def load_graph(config: str | None = None, *, use_cache: bool = True):  # type: ignore[no-untyped-def]
    """See `judge.corpus.loader.load_graph` (imported lazily to keep start-up light)."""
    from judge.corpus.loader import load_graph as _load

    return _load(config, use_cache=use_cache)
