"""Driving the table with the keyboard only: Tab between controls, arrows along the rack, Space to
select, Enter to press a button."""

from __future__ import annotations

from typing import Any

FOCUS_IN_RACK = "() => Boolean(document.activeElement && document.activeElement.closest('#rack'))"


def tab_until(page: Any, predicate: str, *, backwards: bool = False, limit: int = 80) -> None:
    for _ in range(limit):
        if page.evaluate(predicate):
            return
        page.keyboard.press("Shift+Tab" if backwards else "Tab")
    raise AssertionError(f"the keyboard never reached {predicate}")


def focus_rack(page: Any) -> None:
    tab_until(page, FOCUS_IN_RACK)


def focused_face(page: Any) -> tuple[str, bool]:
    return page.evaluate(
        "() => [document.activeElement.dataset.face, document.activeElement.getAttribute('aria-pressed') === 'true']"
    )


def select_tiles(page: Any, faces: list[str]) -> None:
    """With the focus on the rack: for each face, walk the rack with the arrows and press Space on the
    first copy that is not selected yet."""
    for face in faces:
        page.keyboard.press("Home")
        for _ in range(30):
            current, pressed = focused_face(page)
            if current == face and not pressed:
                page.keyboard.press("Space")
                break
            page.keyboard.press("ArrowRight")
        else:
            raise AssertionError(f"{face} is not on the rack")


def press_button(page: Any, name: str) -> None:
    """Tab (backwards from the rack, where the controls are) to the button named `name`, press Enter."""
    predicate = (
        "() => { const a = document.activeElement;"
        f" return a && a.tagName === 'BUTTON' && (a.getAttribute('aria-label') || a.innerText).trim().startsWith({name!r}); }}"
    )
    tab_until(page, predicate, backwards=True)
    page.keyboard.press("Enter")
