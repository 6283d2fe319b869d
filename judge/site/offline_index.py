"""The static book's search index (the exported search index, as a JavaScript file) and its
rule numbers (`rule-numbers.js`, read before the index to open a typed rule number).

`search-index.js` assigns to `window.JUDGE_SEARCH_INDEX` the export of the Whoosh index of
record (`judge.search.export`: the very data `judge search` ranks with), the URL of each
rule in the book and of each glossary entry; `templates/search-match.js` and `templates/search.js` search it as
`judge search` does. Loaded with a `<script>` tag, it works from file:// (no fetch).
"""

from __future__ import annotations

import json
from collections.abc import Callable

from judge.corpus.graph import RuleGraph
from judge.search.export import unpack
from judge.search.index import export_of
from judge.site.templating import glossary_url, rule_url

GLOBAL_NAME = "JUDGE_SEARCH_INDEX"
NUMBERS_NAME = "JUDGE_RULE_NUMBERS"


def search_index_js(graph: RuleGraph) -> str:
    """`search-index.js`: the export of the graph's index (built if needed) and, for each
    language's documents, the URL of its rule (relative to the book's root)."""
    data = unpack(export_of(graph)[0])
    urls = {
        language: [rule_url(graph.require(edition, number, language), "", graph.primary_language(edition))
                   for edition, number in part["docs"]]
        for language, part in data["languages"].items()
    }
    # Each glossary entry's place in its edition's glossary page.
    glossary_urls = [glossary_url(e, term, "") for e, _, term, _, _ in data["entries"]]
    payload = json.dumps({**data, "urls": urls, "glossary_urls": glossary_urls}, ensure_ascii=False, separators=(",", ":"))
    return f"window.{GLOBAL_NAME} = {payload};\n"


def rule_numbers_js(graph: RuleGraph, language_name: Callable[[str], str]) -> str:
    """`rule-numbers.js`: every rule number of each edition and language, so that a typed
    number opens its rule without the search index (templates/rule-jump.js). Per edition: its
    id, label and languages (first one first), and for each language its numbers, space-separated
    (the URL of a rule is made from its number as `judge.site.templating.rule_url` makes it)."""
    editions = [
        {"id": e.id, "label": e.label, "languages": list(e.languages),
         "names": {lang: language_name(lang) for lang in e.languages},
         "numbers": {lang: " ".join(r.number for r in graph.rules(e.id, lang)) for lang in e.languages}}
        for e in graph.editions
    ]
    payload = json.dumps({"editions": editions}, ensure_ascii=False, separators=(",", ":"))
    return f"window.{NUMBERS_NAME} = {payload};\n"
