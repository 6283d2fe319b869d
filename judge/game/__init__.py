"""The game layer: a described situation (`situation`, `model`, `fields`, `aliases`) and the
turn model (`turn`). Knows the corpus's rule numbers only as strings; imports no check.
"""
