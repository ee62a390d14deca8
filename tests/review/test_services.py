"""The review of finished games and the hints at unrated tables (apps/review/services.py, tasks.py,
queue.py), through the table services and real games."""

from __future__ import annotations

from typing import Any

import pytest
from celery import current_app
from django.db import OperationalError, connection
from django.db.models import F
from django.test import override_settings

from apps.engine.game import Draw, get_rules
from apps.engine.review.plays import Suggestion
from apps.engine.tiles import Tile
from apps.review import services, tasks
from apps.review.models import GameReview, HintUse
from apps.review.services import HintForPlayersOnly, HintsOff, HintsUsedUp, NoHintNow, game_hint, hint_status
from apps.tables.models import Game, MoveLog, Table
from tests.review.helpers import finished_game, rated_table, seat_to_move, unrated_table, with_an_opening
from tests.tables.helpers import make_user, play_match, run_due

pytestmark = pytest.mark.django_db


# --- the review task ---------------------------------------------------------------------------------------


def test_the_review_task_stores_one_review_per_finished_game_however_often_it_runs() -> None:
    game = finished_game()
    assert tasks.review_game.apply((game.pk,)).get() == "ready"
    assert tasks.review_game.apply((game.pk,)).get() == "ready"
    review = GameReview.objects.get()
    assert (review.game_id, review.status, review.attempts) == (game.pk, "ready", 1)
    assert review.data["game"] == "tile-rummy" and len(review.data["turns"]) > 5
    assert [seat["seat"] for seat in review.data["summary"]] == [0, 1]


def test_the_review_survives_a_retry_and_is_stored_once(monkeypatch: pytest.MonkeyPatch) -> None:
    game = finished_game()
    real_review = services.engine_review
    calls: list[int] = []

    def flaky(record: Any) -> Any:
        calls.append(1)
        if len(calls) == 1:
            raise OperationalError("the database went away")
        return real_review(record)

    monkeypatch.setattr(services, "engine_review", flaky)
    assert tasks.review_game.apply((game.pk,)).get() == "ready"
    review = GameReview.objects.get()
    assert (review.status, review.attempts, len(calls)) == ("ready", 2, 2)


def test_a_review_that_keeps_failing_is_marked_failed_with_the_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    game = finished_game()

    def broken(record: Any) -> Any:
        raise OperationalError("the database went away")

    monkeypatch.setattr(services, "engine_review", broken)
    assert tasks.review_game.apply((game.pk,)).get() == "failed"
    review = GameReview.objects.get()
    assert review.status == "failed" and "the database went away" in review.error
    assert review.attempts == tasks.MAX_RETRIES + 1
    monkeypatch.undo()
    assert tasks.review_game.apply((game.pk,)).get() == "failed"  # a failed review stays as it is


def test_a_record_that_does_not_replay_fails_at_once_naming_the_move() -> None:
    game = finished_game()
    move = MoveLog.objects.filter(game=game).order_by("seq").first()
    assert move is not None
    MoveLog.objects.filter(pk=move.pk).update(move="draw")  # the starter's first turn has no draw
    assert services.review_compute(game_id=game.pk) == "failed"
    review = GameReview.objects.get()
    assert review.attempts == 1 and "Move 1 ('draw' by seat" in review.error


def test_a_game_still_being_played_has_no_review() -> None:
    table, _ = unrated_table()
    assert services.review_compute(game_id=table.current_game_id) == "missing"
    assert not GameReview.objects.exists()


def test_finishing_a_game_queues_its_review_by_name_after_the_commit(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    sent: list[tuple[str, tuple[Any, ...]]] = []
    monkeypatch.setattr(current_app, "send_task", lambda name, args=(), **options: sent.append((name, tuple(args))))
    table, _ = unrated_table()
    with override_settings(TABLE_ENQUEUE_TASKS=True), django_capture_on_commit_callbacks(execute=True):
        play_match(table.pk)
    assert [args for name, args in sent if name == "review.review_game"] == [(Game.objects.get(match__table=table).pk,)]
    assert tasks.review_game.name == "review.review_game"  # the name the review's subscriber queues is the task's


def test_the_backstop_queues_the_reviews_that_were_lost() -> None:
    game = finished_game()
    assert services.games_waiting_for_reviews() == [game.pk]
    services.review_compute(game_id=game.pk)
    assert services.games_waiting_for_reviews() == []


# --- hints ---------------------------------------------------------------------------------------------------


def something_to_play(view: Any) -> Suggestion:
    """A stand-in search that always finds one tile to play (the first of the rack): a hint that counts."""
    tile = Tile.parse(view["rack"][0])
    return Suggestion((Draw(),), (tile,), 1, 1)


def test_a_player_at_an_unrated_table_gets_the_best_play_from_their_own_view() -> None:
    table, guest = unrated_table("tile-rummy-rearrange")
    table = with_an_opening(table)
    game = Game.objects.get(pk=table.current_game_id)
    rules = get_rules(table.game)
    seat = seat_to_move(table)
    frame = game_hint(table_id=table.pk, by=guest)
    from apps.engine.review import hint

    expected = hint(rules.view_for(rules.from_dict(game.state), seat))
    assert frame["type"] == "hint" and frame["version"] == table.version and frame["left"] == 2
    assert frame["moves"] == [str(move) for move in expected.moves] and frame["tiles"] == expected.tiles
    used = HintUse.objects.get()
    assert (used.game_id, used.seat, used.user_id, used.number, used.version) == (game.pk, seat, guest.pk, 1, table.version)
    assert used.move == MoveLog.objects.filter(game=game).count() == game.move_count
    assert Table.objects.get(pk=table.pk).version == table.version  # a hint changes nothing at the table


def test_the_fourth_hint_of_a_game_is_refused() -> None:
    table, guest = unrated_table("tile-rummy-rearrange")
    with_an_opening(table)
    assert [game_hint(table_id=table.pk, by=guest)["left"] for _ in range(3)] == [2, 1, 0]
    with pytest.raises(HintsUsedUp, match="You have used your 3 hints for this game."):
        game_hint(table_id=table.pk, by=guest)
    assert HintUse.objects.count() == 3
    assert hint_status(table_id=table.pk, user=guest)["left"] == 0


def test_hints_are_refused_at_a_rated_table_and_nothing_is_recorded() -> None:
    table, ana, ben = rated_table()
    assert table.rated
    for user in (ana, ben):
        with pytest.raises(HintsOff, match="There are no hints at rated tables."):
            game_hint(table_id=table.pk, by=user)
    assert not HintUse.objects.exists()
    assert hint_status(table_id=table.pk, user=ana) == {"available": False, "code": "hints_off", "message": "There are no hints at rated tables.", "left": 0}


def test_a_spectator_cannot_ask_for_a_hint() -> None:
    table, _ = unrated_table()
    for watcher in (make_user("watcher"), None):
        with pytest.raises(HintForPlayersOnly):
            game_hint(table_id=table.pk, by=watcher)
    assert not HintUse.objects.exists()


def test_a_hint_is_refused_out_of_turn_and_after_the_game() -> None:
    table, guest = unrated_table()
    assert table.due_action == Table.Due.TIMEOUT
    run_due(table.pk)  # the guest's clock runs out: the table plays its turn, and the bot is to move
    assert seat_to_move(Table.objects.get(pk=table.pk)) != 0
    with pytest.raises(NoHintNow, match="A hint is for your own turn"):
        game_hint(table_id=table.pk, by=guest)
    play_match(table.pk)
    with pytest.raises(NoHintNow, match="You have no game in progress at this table."):
        game_hint(table_id=table.pk, by=guest)
    assert not HintUse.objects.exists()


def test_the_hints_a_player_used_appear_in_the_games_record_and_review(monkeypatch: pytest.MonkeyPatch) -> None:
    table, guest = unrated_table()
    monkeypatch.setattr(services, "engine_hint", something_to_play)  # the record must replay: the deal stays as dealt
    seat = seat_to_move(table)
    made = MoveLog.objects.filter(game_id=table.current_game_id).count()
    game_hint(table_id=table.pk, by=guest)
    play_match(table.pk)
    game = Game.objects.get(match__table=table)
    assert services.record_with_hints(game)["info"]["hints"] == [{"seat": seat, "move": made, "number": 1}]
    services.review_compute(game_id=game.pk)
    data = GameReview.objects.get().data
    assert data["summary"][seat]["hints"] == 1
    [hinted] = [turn for turn in data["turns"] if turn["hint"]]
    assert hinted["seat"] == seat and hinted["moves"][0] == made


@pytest.mark.django_db(transaction=True)
def test_the_hint_is_searched_outside_any_transaction(monkeypatch: pytest.MonkeyPatch) -> None:
    table, guest = unrated_table("tile-rummy-rearrange")
    seen: list[bool] = []
    real_hint = services.engine_hint

    def spying(view: Any) -> Any:
        seen.append(connection.in_atomic_block)
        return real_hint(view)

    monkeypatch.setattr(services, "engine_hint", spying)
    game_hint(table_id=table.pk, by=guest)
    assert seen == [False]


def test_a_hint_is_reserved_before_its_search_and_given_back_when_the_table_moved_on(monkeypatch: pytest.MonkeyPatch) -> None:
    table, guest = unrated_table()
    reserved: list[int] = []

    def moving_on(view: Any) -> Suggestion:
        reserved.append(HintUse.objects.count())
        Table.objects.filter(pk=table.pk).update(version=F("version") + 1)  # a move lands during the search
        return something_to_play(view)

    monkeypatch.setattr(services, "engine_hint", moving_on)
    with pytest.raises(NoHintNow, match="The table moved on while your hint was being found: ask again."):
        game_hint(table_id=table.pk, by=guest)
    assert reserved == [1] and not HintUse.objects.exists()


def test_a_number_given_back_is_taken_again_and_a_fourth_is_still_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    table, guest = unrated_table()
    monkeypatch.setattr(services, "engine_hint", something_to_play)
    assert [game_hint(table_id=table.pk, by=guest)["left"] for _ in range(3)] == [2, 1, 0]
    HintUse.objects.filter(number=1).delete()  # as a give-back leaves it: numbers 2 and 3 taken
    assert game_hint(table_id=table.pk, by=guest)["left"] == 0
    assert sorted(HintUse.objects.values_list("number", flat=True)) == [1, 2, 3]
    with pytest.raises(HintsUsedUp):
        game_hint(table_id=table.pk, by=guest)


def test_the_hints_of_a_private_table_answer_a_stranger_as_for_a_table_that_does_not_exist() -> None:
    table, guest = unrated_table()
    Table.objects.filter(pk=table.pk).update(private=True)
    missing = 10_000 + table.pk
    for stranger in (None, make_user("stranger")):
        hidden = hint_status(table_id=table.pk, user=stranger)
        assert hidden == {**hint_status(table_id=missing, user=stranger), "message": f"There is no table {table.pk}."}
        with pytest.raises(NoHintNow, match=f"There is no table {table.pk}."):
            game_hint(table_id=table.pk, by=stranger)
    assert hint_status(table_id=table.pk, user=guest)["available"]  # its player still sees it
