"""The web layer: `judge serve`, a Starlette app (`app`) over shared state (`state`), its
situation form (`forms`) and its error pages and request limits (`refusals`).
"""
