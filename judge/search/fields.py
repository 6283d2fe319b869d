"""The constants every search path shares, without importing Whoosh: the indexed fields with
their BM25F boosts (the Whoosh index of record, the query evaluator, the offline index) and the
longest query accepted (the CLI, the web app).
"""

from __future__ import annotations

FIELD_BOOSTS: dict[str, float] = {"title": 3.0, "text": 1.0, "examples": 0.6, "context": 0.4}
OWN_FIELDS = ("title", "text")  # a rule's own words: not its examples, not its parent's (`context`)
MAX_QUERY = 500
GLOSSARY = "glossary"  # the name of the index of the glossaries' entries, beside one per language
AUXILIARY = (GLOSSARY,)  # the indexes that are no language's
