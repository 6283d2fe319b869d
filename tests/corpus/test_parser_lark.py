"""The one function of `judge.corpus.parser` that reaches past Lark's public API
(`_plain_reductions`: the LALR parse table's reduce actions and the callback table), on its own.
A Lark whose parse table or callbacks are no longer where it looks fails here, naming its
version; the fast parse it speeds up must still give the reference path's records
(`test_parser_paths.py` compares them on every shipped text)."""

from __future__ import annotations

from types import SimpleNamespace

import lark
import pytest

from judge.corpus import parser as corpus_parser

RULES = """\
1. Game Concepts

100. General

100.1. These Magic rules apply to any Magic game with two or more players (see rule 100.2).

Example: A two-player game follows rule 101.1a.
"""


def test_the_fast_parser_fits_the_installed_lark() -> None:
    version = lark.__version__
    try:
        corpus_parser._fast.cache_clear()  # the parser of record made here, its tables rewritten
        fast = corpus_parser.parse_text(RULES, file="r.txt", edition="x")
    except Exception as exc:  # any failure of the internals is this test's verdict
        pytest.fail(f"Lark {version} : _plain_reductions n'y convient plus ({type(exc).__name__}: {exc})")
    slow = corpus_parser.parse_text(RULES, file="r.txt", edition="x", reference=True)
    assert [r.number for r in fast.rules] == ["100", "100.1"], f"Lark {version} : règles lues {fast.rules}"
    assert fast == slow, f"Lark {version} : l'analyse rapide diffère de celle de référence"
    assert [ref.number for ref in fast.rules[1].references] == ["100.2", "101.1a"]
    assert fast.rules[1].examples[0].text == "A two-player game follows rule 101.1a."


def test_a_lark_without_those_tables_is_named_not_a_bare_attribute_error() -> None:
    without = SimpleNamespace(parser=SimpleNamespace(parser=SimpleNamespace()))
    with pytest.raises(RuntimeError, match=rf"lark {lark.__version__} ne convient plus"):
        corpus_parser._plain_reductions(without)
