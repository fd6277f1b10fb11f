"""The terminal table's pace tells nothing of offers the player does not see.

At the ``normal`` and ``slow`` paces the computer players' moves are shown one by one, each a
fixed time after the one before. An offer made to a computer player and declined unseen (a
Pounce, Cox's "I buy") is no move the player sees: it must not be shown as one (no pause
after which the table is the same), and the time a computer player takes to answer (a search
when it could take the card, nothing when it could not) is inside the pause, not added to
it. What the player sees is then the same whether an offer was made and declined or never
made.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from commerce.bots import make_bot
from commerce.cli.table import TableApp
from commerce.cli.table import app as table_app
from commerce.core import Action, ActionKind
from commerce.driver import Driver
from commerce.rules import find_ruleset
from tests.harness.table import drive

PACE = 0.05


class Decliner:
    """The heuristic, except that it declines every Pounce, taking a while to think it over
    (as the search bot does when it could take the card)."""

    name = spec = "decliner"

    def __init__(self) -> None:
        self.inner = make_bot("heuristic")

    def act(self, obs: Any, legal: Any, rng: Any) -> Action:
        if any(a.kind is ActionKind.POUNCE for a in legal):
            time.sleep(PACE / 2)
            return next(a for a in legal if a.kind is ActionKind.DECLINE)
        return self.inner.act(obs, legal, rng)


def _before_a_hidden_decline() -> tuple[Driver, int, int]:
    """A game of Pounce stopped where a computer player is offered a pounce that it will
    decline; the player's seat (not offered) and the offered seat."""
    rules = find_ruleset("pounce")
    for seed in range(60):
        driver = Driver(rules, [Decliner() for _ in range(4)], seed=seed)
        while driver.outcome() is None:
            d = driver.decision()
            if d is not None and d.seat is not None and d.kind.value == "pounce_offer":
                human = next(s for s in range(4) if s != d.seat)
                driver.agents[human] = None
                return driver, human, d.seat
            driver.step()
    raise AssertionError("no pounce offer in 60 games")


def test_a_declined_pounce_is_no_pause_of_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(table_app.PACES, "normal", PACE)
    driver, human, offered = _before_a_hidden_decline()
    app = TableApp(driver, human, None, pace="normal")
    shown: list[Any] = [app.view()]
    paused: list[float] = []
    set_timer = app.set_timer

    def recording_timer(delay: float, callback: Any, *args: Any, **kw: Any) -> Any:
        paused.append(delay)
        if driver.waiting_for_human() is None:  # a pause before a computer player's move
            shown.append(app.view())
        return set_timer(delay, callback, *args, **kw)

    app.set_timer = recording_timer  # type: ignore[method-assign]

    async def script(pilot: Any) -> None:
        for _ in range(400):
            if driver.waiting_for_human() == human or driver.outcome() is not None:
                break
            await pilot.pause(PACE / 2)
        await pilot.pause()

    drive(app, (100, 32), script)
    assert driver.waiting_for_human() == human
    declined = [e for e in driver.events if e.kind == "pounce_declined" and e.seat == offered]
    assert declined, "the offered seat declined"
    # every pause before a computer player's move comes with something new on the table: no
    # move is shown that the player cannot see
    assert paused, "the computer players' moves were paced"
    repeats = [k for k in range(1, len(shown)) if shown[k] == shown[k - 1]]
    assert not repeats, f"{len(repeats)} pauses showed the table unchanged"
    # the decliner's half a pace of thinking is inside the pause, not after it
    assert all(delay <= PACE + 1e-9 for delay in paused)
    assert min(paused) < PACE, "the time the moves took was not taken from the pause"
