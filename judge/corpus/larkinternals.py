"""The one place judge reaches past Lark's public API: what of a built parser it reads.

Owns `lark_internals`: a parser's callback table and LALR parse table (`judge.corpus.parser`
puts plain reductions in them) and its Earley parser (`judge.ask.reader` sets its terminal test
and predictions). No public API gives them; each user checks that what it needs is there and
raises a `RuntimeError` naming the Lark version otherwise (`tests/corpus/test_parser_lark.py`,
`tests/ask/test_ask_lark.py` fail on the first Lark release where they are gone).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class LarkInternals:
    """What judge reads inside a built `lark.Lark` (None where that parser has no such part)."""

    callbacks: dict[Any, Any] | None  # rule -> callback (an LALR parser's, mutated in place)
    lalr_states: dict[Any, Any] | None  # the LALR parse table's states
    earley: Any  # the Earley parser object (its `term_matcher`, `predictions`, `parser_conf`)
    frontend: Any  # the parsing front end that holds it (`parse`), copied to parse with another


def lark_internals(lark: Any) -> LarkInternals:
    """The internals of `lark` that judge uses, each None when not where it expects it."""
    callbacks = getattr(lark, "_callbacks", None)
    inner = getattr(getattr(lark, "parser", None), "parser", None)
    table = getattr(inner, "_parse_table", None)
    states = getattr(table, "states", None)
    earley = inner if hasattr(inner, "term_matcher") and hasattr(inner, "predictions") else None
    return LarkInternals(callbacks=callbacks if isinstance(callbacks, dict) else None,
                         lalr_states=states if isinstance(states, dict) else None, earley=earley,
                         frontend=getattr(lark, "parser", None))
