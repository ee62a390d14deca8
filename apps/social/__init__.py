"""Follows, friends, blocks and challenges between players (SPEC 17).

On floor 2 (above accounts): the tables, chat, quick pairing and arenas ask it who blocked whom
(`selectors`), and it tells the others what happened by events (`events`), never by naming them."""
