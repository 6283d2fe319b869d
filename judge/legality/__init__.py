"""Legality: what the rules allow at a moment of the game (attacking, blocking, casting, playing a land,
assigning combat damage), in French reasons and the concepts deciding them. Shared by the
procedure (`judge.procedure`) and the questions (`judge.checks`); imports neither."""
