"""A simple player of the house game that plays through the page like a person: it reads its rack from
the tile buttons, clicks (or presses keys) and waits for the table to answer. Its choices come from the
engine's helpers, fed only what the page shows (the rack); the page and the server do the rest."""

from __future__ import annotations

from typing import Any

from apps.engine.house.helpers import find_opening, melds_from_rack
from apps.engine.house.melds import rack_penalty
from apps.engine.tiles import Tile

TURN_OR_END = """() => {
  const app = document.getElementById('table-app');
  return app.classList.contains('is-my-turn') && !app.classList.contains('is-busy')
    || !document.getElementById('results').hidden;
}"""


class HousePlayer:
    def __init__(self, page: Any) -> None:
        self.page = page
        self._words: dict[str, Any] | None = None

    def word(self, key: str) -> str:
        """A button's name as the page shows it, in the page's language (its strings, ui_strings.py)."""
        if self._words is None:
            self._words = self.page.evaluate("() => JSON.parse(document.getElementById('ui-strings').textContent)")
        return str(self._words[key])

    # What the page shows ------------------------------------------------------------------------------

    def rack(self) -> list[str]:
        return self.page.locator("#rack .tile").evaluate_all("tiles => tiles.map(t => t.dataset.face)")

    def results_shown(self) -> bool:
        return self.page.locator("#results").is_visible()

    def opened(self) -> bool:
        return self.page.locator("#me-bar .badge--opened").count() > 0

    def button(self, key: str) -> Any:
        return self.page.locator("#actions, #tray").get_by_role("button", name=self.word(key), exact=False)

    def wait_for_turn_or_end(self, timeout: float = 30_000) -> None:
        self.page.wait_for_function(TURN_OR_END, timeout=timeout)

    def wait_idle(self) -> None:
        self.page.wait_for_function("() => !document.getElementById('table-app').classList.contains('is-busy')")

    # Acting ---------------------------------------------------------------------------------------------

    def pressed(self) -> list[str]:
        return self.page.locator('#rack .tile[aria-pressed="true"]').evaluate_all("tiles => tiles.map(t => t.dataset.face)")

    def select(self, faces: list[str]) -> None:
        for face in faces:
            self.page.locator(f'#rack .tile[data-face="{face}"][aria-pressed="false"]').first.click()

    def draw(self) -> None:
        before = len(self.rack())
        self.page.locator("#actions").get_by_role("button", name=self.word("draw")).click()
        self.page.wait_for_function(f"() => document.querySelectorAll('#rack .tile').length > {before}")

    def open_if_possible(self) -> bool:
        rack = [Tile.parse(face) for face in self.rack()]
        melds = find_opening(rack)
        if melds is None:
            return False
        for meld in melds:
            self.select([str(tile) for tile in meld.tiles])
            self.button("add_to_opening").click()
        self.page.locator("#tray").get_by_role("button", name=self.word("lay_opening")).click()
        self.page.locator("#me-bar .badge--opened").wait_for()
        self.wait_idle()
        return True

    def discard_choice(self) -> str:
        """The most expensive tile that is in no meld the rack could make (else the most expensive)."""
        rack = [Tile.parse(face) for face in self.rack()]
        useful = {tile for meld in melds_from_rack(rack) for tile in meld.tiles}
        candidates = [tile for tile in rack if tile not in useful and not tile.is_joker] or [
            tile for tile in rack if not tile.is_joker
        ] or rack
        return str(max(candidates, key=lambda tile: (rack_penalty(tile), tile.number or 0)))

    def discard(self, face: str) -> None:
        self.select([face])
        self.page.locator("#actions").get_by_role("button", name=self.word("discard")).click()
        self.page.wait_for_function(
            "() => !document.getElementById('table-app').classList.contains('is-my-turn')"
            " || !document.getElementById('results').hidden"
        )

    def play_turn(self) -> None:
        draw = self.page.locator("#actions").get_by_role("button", name=self.word("draw"))
        if draw.count() and draw.is_enabled():
            self.draw()
        if not self.opened():
            self.open_if_possible()
        if self.results_shown():
            return
        self.discard(self.discard_choice())

    def play_game(self, max_turns: int = 80) -> int:
        """Play until the score table shows; returns the number of turns played."""
        for turn in range(max_turns):
            self.wait_for_turn_or_end()
            if self.results_shown():
                return turn
            self.play_turn()
        raise AssertionError(f"the game did not end within {max_turns} turns")
