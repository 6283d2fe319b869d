"""The search layer: one search, three runners. Text pipeline (`tokens`, `analysis`), the
Whoosh index of record (`index`) and its export (`export`), query planning and ranking over
either (`query`, `match`; `engine` = Whoosh for `judge serve`, `light` = the export for
`judge search`; `templates/search.js` = the export in the static book) and the result shapes
(`output`).
"""
