"""Notifications: the bell, live on open pages, and Web Push (SPEC 17)."""
