"""Who blocked whom, as the tables, chat, quick pairing and arenas ask it (apps/social/selectors.py)."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from apps.social import selectors
from apps.social.models import Block
from tests.tables.helpers import make_user

pytestmark = pytest.mark.django_db


def test_blocked_pairs_among_a_group_go_either_way_and_ignore_outsiders():
    ana, bogdan, carmen, dan = (make_user(name) for name in ("ana", "bogdan", "carmen", "dan"))
    Block.objects.create(blocker=ana, blocked=bogdan)
    Block.objects.create(blocker=dan, blocked=carmen)
    assert selectors.blocked_pairs([ana.pk, bogdan.pk, carmen.pk]) == {frozenset((ana.pk, bogdan.pk))}
    assert selectors.blocked_pairs([carmen.pk, dan.pk, ana.pk]) == {frozenset((carmen.pk, dan.pk))}
    assert selectors.blocked_pairs([ana.pk]) == set()
    assert selectors.is_blocked_either_way(bogdan.pk, ana.pk)
    assert selectors.has_blocked(ana.pk, bogdan.pk) and not selectors.has_blocked(bogdan.pk, ana.pk)
    assert not selectors.is_blocked_either_way(ana.pk, carmen.pk)


def test_nobody_blocks_themselves_or_anyone_twice():
    ana, bogdan = make_user("ana"), make_user("bogdan")
    with pytest.raises(IntegrityError), transaction.atomic():
        Block.objects.create(blocker=ana, blocked=ana)
    Block.objects.create(blocker=ana, blocked=bogdan)
    with pytest.raises(IntegrityError), transaction.atomic():
        Block.objects.create(blocker=ana, blocked=bogdan)
    assert Block.objects.count() == 1
