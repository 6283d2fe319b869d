"""The search layer: one engine, Whoosh. Text pipeline (`tokens`, `analysis`), the Whoosh index
of record (`index`), the engine that queries it for `judge search`, `judge serve` and the
library (`engine`), query planning and ranking (`query`, `match`), the result shapes
(`output`), and the export of the index that the static book's `templates/search.js` ranks
with in the browser (`export`).
"""
