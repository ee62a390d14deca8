"""Quick pairing and seeks: pools by game, seats and pace, paired in waves by rating (SPEC 15)."""
