"""Puzzles from the exact solver: the trainer, puzzle ratings and the daily puzzle (SPEC 18)."""
