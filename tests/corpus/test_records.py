"""The fast record constructors (`judge.corpus.records`, the graph's resolved references)
against the dataclasses themselves: every field, in declaration order, and nothing else; the
same record once made (type, equality, hash, frozen, pickled bytes)."""

from __future__ import annotations

import dataclasses
import pickle
from collections.abc import Callable
from typing import Any

import pytest

from judge.corpus import records
from judge.corpus.graph import ResolvedReference, _resolved
from judge.corpus.model import Example, GlossaryEntry, Line, Plain, Reference, Rule, Span

MAKERS: list[tuple[type, Callable[..., Any]]] = [
    (Span, records.span), (Plain, records.plain), (Reference, records.reference), (Example, records.example),
    (Rule, records.rule), (GlossaryEntry, records.glossary_entry), (Line, records.line),
    (ResolvedReference, _resolved),
]


@pytest.mark.parametrize(("cls", "make"), MAKERS, ids=lambda x: getattr(x, "__name__", ""))
def test_a_maker_sets_every_field_as_the_dataclass_does(cls: type, make: Callable[..., Any]) -> None:
    # one distinct value per field, in declaration order: a swapped, missing or extra field shows
    values = [object() for _ in dataclasses.fields(cls)]
    made = make(*values)
    expected = cls(**{f.name: v for f, v in zip(dataclasses.fields(cls), values, strict=True)})
    assert type(made) is cls
    assert [getattr(made, f.name) for f in dataclasses.fields(cls)] == values
    assert made == expected and hash(made) == hash(expected)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.__setattr__(dataclasses.fields(cls)[0].name, None)


@pytest.mark.parametrize(("cls", "make"), MAKERS, ids=lambda x: getattr(x, "__name__", ""))
def test_a_made_record_pickles_as_the_dataclass_does(cls: type, make: Callable[..., Any]) -> None:
    values = [f"{f.name}-value" for f in dataclasses.fields(cls)]
    made = make(*values)
    expected = cls(**{f.name: v for f, v in zip(dataclasses.fields(cls), values, strict=True)})
    assert pickle.dumps(made) == pickle.dumps(expected)
    again = pickle.loads(pickle.dumps(made))
    assert type(again) is cls and again == expected
