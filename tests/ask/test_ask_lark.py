"""The one function of `judge.ask.reader` that reaches past Lark's public API (`_earley_of`:
the Earley parser's terminal test and predictions) fits the installed Lark: this fails loudly
on the first Lark version where it no longer does (issue 36), rather than readings changing
silently."""

from __future__ import annotations

import lark

from judge.ask.reader import _earley_of, parser


def test_the_installed_lark_has_what_the_reader_reaches() -> None:
    earley = _earley_of(parser())
    assert callable(earley.term_matcher) and isinstance(earley.predictions, dict)
    assert earley.parser_conf.rules
    assert lark.__version__.split(".")[0] == "1"
