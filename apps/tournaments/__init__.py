"""Arenas: tournaments of 2-4-seat tables on a calendar, with standings pushed live (SPEC 16)."""
