"""The corpus layer: rule texts -> decoded lines -> Lark parse -> frozen documents -> `RuleGraph`.

Decoding (`textio`), the manifest and user configuration (`manifest`), the grammar
(`grammar.lark`, loaded by `parser`), line placement (`assemble`), the frozen model (`documents`),
loading and caching (`loader`), the cross-referenced graph (`graph`), consistency findings
(`lint`) and the stable JSON/text forms (`render`). Imports nothing above the base modules.
"""
