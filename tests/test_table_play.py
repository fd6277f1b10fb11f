"""The full-screen table played as a person would, by Textual's pilot: by mouse (a card, then
the move; the widow's exchanges as your card, then the widow's), the offers that pop up out of
turn (a Pounce, Cox's "I buy", buying a horse), a deal's showdown and the scoreboard, the end of
the game and "play again"."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from commerce import engine
from commerce.bots import make_bot
from commerce.cli.table import TableApp
from commerce.cli.table.app import OFFERS
from commerce.cli.table.screens import Note, showdown_text
from commerce.core import ActionKind, DecisionKind
from commerce.driver import Driver
from commerce.family import family_spec
from commerce.rules import find_ruleset
from commerce.rules import rulesets as all_rulesets
from tests.harness.table import drive, new_app

NAMES = ["You", "Alice", "Bob", "Carol"]


def _plain(renderable: Any, width: int = 80) -> str:
    console = Console(width=width, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def _note(app: TableApp) -> Note | None:
    top = app.screen
    return top if isinstance(top, Note) else None


def _menu(app: TableApp) -> list[str]:
    menu: Any = app.query_one("#menu")
    return [str(menu.get_option_at_index(n).prompt) for n in range(menu.option_count)]


def test_a_card_then_a_move_by_mouse(tmp_path: Path) -> None:
    app = new_app("peel", 7, tmp_path / "g.json")
    before: list[int] = []

    async def script(pilot: Any) -> tuple[int | None, list[str], str]:
        before.append(len(app.driver.actions))
        start, _, _ = app.query_one("#hand").spans[0]  # type: ignore[attr-defined]
        await pilot.click("#hand", offset=(start, 0))
        await pilot.pause()
        chosen, menu = app.selected, _menu(app)
        card = app.view().hand[0].symbols
        row = next(n for n, label in enumerate(menu) if card in label.split())
        await pilot.click("#menu", offset=(3, row))
        await pilot.pause()
        return chosen, menu, card

    chosen, menu, card = drive(app, (80, 24), script)
    assert chosen == 0
    # the menu holds the moves with the chosen card, and those naming no card (stand)
    assert all(card in m.split() or not any(c in m for c in "♠♥♦♣") for m in menu), menu
    mine = app.driver.actions[before[0]]
    assert mine.split()[0] in ("trade", "barter") and len(mine.split()) == 2, mine


def _exchange_at_turn(rules_id: str) -> tuple[TableApp, int, int, Any]:
    """A widow game at the player's turn with a one-for-one exchange: the app, the hand's
    card and the widow's card of that exchange, and the exchange."""
    for seed in range(20):
        app = new_app(rules_id, seed)
        d = app.driver
        d.run()
        decision = d.decision()
        if decision is None or decision.kind is not DecisionKind.TURN:
            continue
        view = app.view()
        widow = next(p for p in view.piles if p.card_ids)
        for a in engine.legal_actions(d.state):
            if a.kind is ActionKind.EXCHANGE and len(a.cards) == 2:
                return app, view.hand_cards.index(a.cards[0]), widow.card_ids.index(
                    a.cards[1]), a
    raise AssertionError("no exchange at the player's turn in 20 games")


def test_the_widow_exchange_is_your_card_then_the_widow_card(tmp_path: Path) -> None:
    app, mine, theirs, exchange = _exchange_at_turn("widow")
    before = len(app.driver.actions)

    async def script(pilot: Any) -> list[str]:
        middle: Any = app.query_one("#middle")
        spans = {key % 1000: start for start, _, key in middle.spans}
        await pilot.click("#middle", offset=(spans[theirs], 0))  # no card of yours chosen yet
        await pilot.pause()
        refused = len(app.driver.actions) == before
        hand: Any = app.query_one("#hand")
        await pilot.click("#hand", offset=(hand.spans[mine][0], 0))
        await pilot.click("#middle", offset=(spans[theirs], 0))
        await pilot.pause()
        log: Any = app.query_one("#log")
        return [str(refused), *(str(line.text) for line in log.lines)]

    out = drive(app, (80, 24), script)
    assert out[0] == "True"
    log = " ".join(" ".join(out[1:]).split())  # the log wraps its lines
    assert "Choose a card of your hand first" in log, log
    assert app.driver.actions[before] == engine.format_action(app.driver.rules, exchange)


def _offered(rules_id: str, kind: DecisionKind, seeds: range) -> TableApp:
    """A game where the player, played by the heuristic until then, is offered *kind* (with
    a choice: an offer with one answer is answered for the player)."""
    rules = find_ruleset(rules_id)
    for seed in seeds:
        bots = [make_bot("heuristic") for _ in NAMES]
        driver = Driver(rules, bots, seed=seed, names=NAMES)
        while driver.outcome() is None:
            d = driver.decision()
            if (d is not None and d.seat == 0 and d.kind is kind
                    and len(engine.legal_actions(driver.state)) > 1):
                driver.agents[0] = None
                return TableApp(driver, 0, None, pace="instant")
            driver.step()
    raise AssertionError(f"no {kind} for the player in {seeds}")


def _offer_pops_up_and_is_answered(app: TableApp, words: str, answers: set[ActionKind]) -> None:
    seen: list[str] = []
    app.notify = lambda message, **kw: seen.append(str(message))  # type: ignore[method-assign]
    before = len(app.driver.actions)
    assert app.driver.decision() is not None and app.driver.decision().kind in OFFERS

    async def script(pilot: Any) -> None:
        await pilot.pause()
        await pilot.press("1", "enter")  # the first answer of the menu
        await pilot.pause()

    drive(app, (80, 24), script)
    assert seen and words in seen[0], seen
    made = app.driver.actions[before]
    assert made.split()[0] in {a.value for a in answers}, made


def test_a_pounce_pops_up_and_is_answered_by_a_key() -> None:
    app = _offered("pounce", DecisionKind.POUNCE_OFFER, range(15, 16))
    _offer_pops_up_and_is_answered(app, "fourth card of your tricon",
                                   {ActionKind.POUNCE, ActionKind.DECLINE})


def test_coxs_i_buy_pops_up_and_is_answered_by_a_key() -> None:
    app = _offered("cox", DecisionKind.BUY_OFFER, range(0, 1))
    _offer_pops_up_and_is_answered(app, "buy", {ActionKind.BUY, ActionKind.DECLINE})


def test_buying_a_horse_pops_up_and_is_answered_by_a_key() -> None:
    app = _offered("pool", DecisionKind.HORSE_OFFER, range(1, 2))
    _offer_pops_up_and_is_answered(app, "buy a horse",
                                   {ActionKind.BUY_HORSE, ActionKind.DECLINE})


def test_a_deals_showdown_waits_for_a_key_and_the_scoreboard_follows(tmp_path: Path) -> None:
    app = new_app("peel", 7, tmp_path / "g.json")

    async def script(pilot: Any) -> tuple[str, str, int, bool]:
        for _ in range(100):
            if _note(app) is not None:
                break
            await pilot.press("right", "down", "enter")
            await pilot.pause()
        note = _note(app)
        assert note is not None and note.name == "showdown", "no showdown at the deal's end"
        text = _plain(note.body)
        moves = len(app.driver.actions)
        await pilot.pause(0.2)  # the game waits for the key
        waited = len(app.driver.actions) == moves and _note(app) is note
        await pilot.press("c")
        await pilot.pause()
        scores = _note(app)
        assert scores is not None and scores.name == "scoreboard"
        board = _plain(scores.body)
        await pilot.press("space")
        await pilot.pause()
        return text, board, len(app.deals), waited and len(app.driver.actions) > moves

    text, board, deals, went_on = drive(app, (80, 24), script)
    assert "Deal 1 is over." in text and "Showdown" in text, text
    for name in NAMES:
        assert name in text and name in board
    assert "won the deal with the best hand" in text and "stakes" in text, text
    assert deals >= 1 and went_on  # the game waited for the key, then went on
    assert "total" in board and max(len(line) for line in board.splitlines()) <= 80


def test_deals_the_player_had_no_part_in_are_summarised() -> None:
    rules = find_ruleset("hoyle")
    driver = Driver(rules, [make_bot("heuristic") for _ in NAMES], seed=4, names=NAMES)
    driver.run()
    spec = family_spec("widow")
    assert spec.deal_reader is not None
    events = engine.visible_events(tuple(driver.events), 0)
    deals = spec.deal_reader(rules, 4, events)[:3]
    starts = [0, deals[0].end + 1, deals[1].end + 1]
    text = _plain(showdown_text("deal", 1, deals, events, starts, NAMES,
                                lambda e: spec.describe_event(e, NAMES, 0), "tokens"))
    assert "Played while you had no move to make (2 deals):" in text, text
    assert "Deal 1: won by" in text and "Deal 2: won by" in text
    assert "Deal 3 is over." in text and "Deal 3: won by" not in text

    # at the table: the deal played before the player's first move is shown first
    app = TableApp(Driver(rules, [None, *(make_bot("heuristic") for _ in range(3))], seed=4,
                          names=NAMES), 0, None, pace="instant")

    async def script(pilot: Any) -> str:
        await pilot.pause()
        note = _note(app)
        return "" if note is None else _plain(note.body)

    shown = drive(app, (80, 24), script)
    assert "Deal 1 is over." in shown and "Showdown" in shown, shown


def test_the_end_shows_the_standing_and_offers_another_game() -> None:
    rules = find_ruleset("peel")
    driver = Driver(rules, [make_bot("heuristic") for _ in NAMES], seed=5, names=NAMES)
    driver.run()
    outcome = driver.outcome()
    assert outcome is not None
    driver.agents[0] = None
    app = TableApp(driver, 0, None, pace="instant")

    async def script(pilot: Any) -> tuple[str, str]:
        await pilot.pause()
        end = _note(app)
        assert end is not None and end.name == "end"
        text = _plain(end.body)
        await pilot.press("c")
        await pilot.pause()
        board = _plain(_note(app).body)  # type: ignore[union-attr]
        await pilot.press("space")  # back to the end
        await pilot.pause()
        assert _note(app) is not None and _note(app).name == "end"  # type: ignore[union-attr]
        await pilot.press("n")
        await pilot.pause()
        return text, board

    text, board = drive(app, (80, 24), script)
    best = max(range(4), key=lambda s: outcome.payoffs[s])
    assert f"1. {NAMES[best]}" in text and "n: play again" in text, text
    assert "total" in board and board.count("\n") > len(app.deals)
    assert app.again and app.return_code == 0


def test_the_last_deals_showdown_comes_before_the_end() -> None:
    rules = find_ruleset("peel")
    whole = Driver(rules, [make_bot("heuristic") for _ in NAMES], seed=5, names=NAMES)
    whole.run()
    driver = Driver(rules, [make_bot("heuristic") for _ in NAMES], seed=5, names=NAMES)
    while len(driver.actions) < len(whole.actions) - 1:  # one move before the end
        driver.step()
    assert driver.decision() is not None and driver.decision().seat != 0  # type: ignore[union-attr]
    driver.agents[0] = None
    app = TableApp(driver, 0, None, pace="instant")

    async def script(pilot: Any) -> list[str]:
        names = []
        for _ in range(2):
            await pilot.pause()
            note = _note(app)
            names.append("" if note is None else str(note.name))
            await pilot.press("space")
        return names

    assert drive(app, (80, 24), script) == ["showdown", "end"]
    # the deals read bit by bit are those read from the whole game at once
    reader = family_spec("trading").deal_reader
    assert reader is not None and app.deals == reader(rules, 4, app.seen)


@pytest.mark.parametrize("rules_id", ["peel", "pool"])
def test_a_whole_game_is_played_by_keys_at_80x24(rules_id: str) -> None:
    app = new_app(rules_id, 3)

    async def script(pilot: Any) -> list[str]:
        seen: list[str] = []
        for _ in range(1500):
            note = _note(app)
            if note is not None:
                seen.append(str(note.name))
                if note.name == "end":
                    break
                await pilot.press("space")  # past the showdown
            else:
                await pilot.press("down", "enter")  # the second move the menu offers
            await pilot.pause()
        return seen

    seen = drive(app, (80, 24), script)
    assert app.driver.outcome() is not None and seen[-1] == "end", seen[-3:]
    assert seen.count("showdown") >= 1 and len(app.deals) >= 4


SHORT: dict[str, dict[str, object]] = {
    "trading": {"max_rounds_per_deal": 1},
    "widow": {"deals": 1, "max_rounds_per_deal": 1},
    "cox": {"hands_per_game": 1},
    "vingtun": {"deal_limit": "hands", "deal_hands": 1},
}
"""Per family, the options that make a game short (every step of the rules still played)."""


@pytest.mark.parametrize("rules_id", [r.id for r in all_rulesets()])
def test_a_short_game_of_every_ruleset_is_played_by_keys_to_its_end(rules_id: str) -> None:
    app = new_app(rules_id, 5, options=SHORT[find_ruleset(rules_id).family])

    async def script(pilot: Any) -> list[str]:
        seen: list[str] = []
        for _ in range(1500):
            note = _note(app)
            if note is not None:
                seen.append(str(note.name))
                if note.name == "end":
                    break
                await pilot.press("space")  # past the showdown
            else:
                await pilot.press("1", "enter")  # the first move the menu offers
            await pilot.pause()
        return seen

    seen = drive(app, (80, 24), script)
    assert app.driver.outcome() is not None and seen and seen[-1] == "end", seen[-3:]
