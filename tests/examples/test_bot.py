"""The example bot (examples/bot/bot.py) against the real site (daphne, the embedded worker moving the
site's bots): a bot account with a token plays whole games of both kinds through the bot's own code, over
the real socket; it accepts an invitation of another bot account and their match rates both on the bots'
leaderboard; revoking its token closes its socket at once."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import urllib.request

import pytest

from apps.engine.records import GameRecord, replay
from tests.live_site import ROOT, run

GAMES = ["tile-rummy", "tile-rummy-rearrange"]


def get(site, path: str, token: str) -> dict:
    request = urllib.request.Request(site.url + path, headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def online(site, name: str) -> bool:
    with urllib.request.urlopen(f"{site.url}/bots/online/?q={name}", timeout=30) as response:
        return name in [bot["name"] for bot in json.loads(response.read())["bots"]]


@pytest.mark.parametrize("game", GAMES)
def test_the_example_bot_plays_a_whole_game_against_the_sites_easy_bot(site, example_bot, game):
    token = site.bot_account(f"robo-{game}")
    api = example_bot.Api(site.url, token)
    result = run(example_bot.open_and_play(api, game, "easy", example_bot.Brain("easy", seed=7)))
    assert result["status"] == "finished" and result["game"] == game
    assert sorted(standing["seat"] for standing in result["standings"]) == [0, 1]
    [game_id] = result["games"]
    record = get(site, f"/api/bot/games/{game_id}/record", token)
    replayed = replay(GameRecord.from_dict(record))  # every move checked again, the result and the fair deal too
    assert replayed.result is not None and list(replayed.result.scores) == record["result"]["scores"]
    assert replayed.fair is not None and replayed.fair.verified
    bot_moves = [move["move"] for move in record["moves"] if move["seat"] == 0]
    assert bot_moves and not {"timeout", "auto"} & {move.split()[0] for move in bot_moves}  # all its own


def test_the_example_bot_accepts_an_invitation_and_a_match_among_bot_accounts_is_rated_once(site, example_bot):
    guest_token = site.bot_account("invited-bot")
    host_token = site.bot_account("hosting-bot")
    guest_api = example_bot.Api(site.url, guest_token)
    host_api = example_bot.Api(site.url, host_token)

    async def match() -> tuple[list[dict], dict]:
        waiting = asyncio.ensure_future(example_bot.serve(guest_api, example_bot.Brain("easy", seed=3), matches=1))
        me = (await host_api.get("/api/bot/account"))["account"]["id"]
        table = (await host_api.post("/api/bot/tables", {"game": "tile-rummy", "seat_1": "account",
                                                         "seat_1_account": "invited-bot"}))["table"]
        hosted = await example_bot.play(host_api, table["id"], table["socket"], me, example_bot.Brain("easy", seed=4))
        return await waiting, hosted

    [invited], hosted = run(match())
    assert invited["table"] == hosted["table"] and hosted["status"] == "finished"

    async def rated() -> list[dict]:
        while True:  # the rating task runs on the site's worker just after the match: wait for it
            ratings = [(await api.get("/api/bot/account"))["account"]["ratings"] for api in (guest_api, host_api)]
            if all(board.get("tile-rummy") for board in ratings):
                return [board["tile-rummy"] for board in ratings]
            await asyncio.sleep(0.2)

    boards = run(rated(), ceiling=120)
    assert [board["matches"] for board in boards] == [1, 1]
    with urllib.request.urlopen(site.url + "/leaderboards/tile-rummy/bots/", timeout=30) as response:
        page = response.read().decode()
    assert "invited-bot" in page and "hosting-bot" in page
    with urllib.request.urlopen(site.url + "/leaderboards/tile-rummy/", timeout=30) as response:
        people = response.read().decode()
    assert "invited-bot" not in people and "hosting-bot" not in people


def test_revoking_the_token_closes_the_example_bots_socket_and_it_stops(site, example_bot):
    token = site.bot_account("revoked-bot")
    api = example_bot.Api(site.url, token)

    async def revoked() -> str:
        waiting = asyncio.ensure_future(example_bot.serve(api, example_bot.Brain("easy")))
        while not await asyncio.to_thread(online, site, "revoked-bot"):  # its lobby socket is open
            await asyncio.sleep(0.1)
        token_id = (await api.get("/api/bot/account"))["token"]["id"]
        await asyncio.to_thread(site.manage, "bot_token", "revoke", str(token_id))
        try:
            await waiting
        except example_bot.Stopped as stopped:
            return str(stopped)
        return "still running"

    assert "4401" in run(revoked(), ceiling=120)


def test_the_example_bot_runs_in_one_command_and_prints_the_result(site):
    token = site.bot_account("one-command-bot")
    done = subprocess.run(
        [sys.executable, "examples/bot/bot.py", "--url", site.url, "--open", "tile-rummy", "--vs", "hard"],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
        env={**os.environ, "PYTHONPATH": "", "RUMMY_BOT_TOKEN": token},  # the token never in its arguments (ps)
    )
    assert done.returncode == 0, done.stderr
    [line] = [line for line in done.stdout.splitlines() if line.startswith("result: ")]
    result = json.loads(line.removeprefix("result: "))
    assert result["status"] == "finished" and [s["name"] for s in result["standings"]].count("one-command-bot") == 1
    assert "place 1:" in done.stdout
