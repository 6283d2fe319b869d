"""The search layer: French analysis (`analysis`), the Whoosh index of record (`index`), query
planning and evaluation (`query`, `match`) and the result shapes (`output`).
"""
