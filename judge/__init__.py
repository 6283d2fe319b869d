"""judge: a French Magic: The Gathering rules-judge knowledge base and query tool.

Library first: `judge.corpus.loader.load_graph()` gives the cross-referenced rule graph of the
embedded corpus; the `judge` command (`judge.cli`) is a thin client of the layers below it.
The layers and how data flows through them: `docs/architecture.md`.
"""

from __future__ import annotations

__version__ = "0.7.0"
# The name the package is installed under (`pip install judge-mtg-fr`): `judge` is taken on PyPI.
DISTRIBUTION = "judge-mtg-fr"

__all__ = ["DISTRIBUTION", "__version__"]
