"""The full-screen table never surprises the player: keys do what they show, no key crashes
it, the last deal is shown, the showdown says why, one name for the player, every figure in
the family's unit, every layout fits, a hint shows that it is being worked out, Cox's offers
never stack. Each test here is a surprise a new player met, played through Textual's pilot.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len
from rich.console import Console

from commerce import engine
from commerce.bots import make_bot
from commerce.cli.table import TableApp
from commerce.cli.table.app import you_inside
from commerce.cli.table.screens import Note, amount, end_text, scoreboard, standing, times
from commerce.core import ActionKind, DecisionKind, Event, Outcome
from commerce.driver import Driver
from commerce.family import DealSummary
from commerce.record import GameRecord
from commerce.rules import find_ruleset
from tests.harness.table import drive, new_app

NAMES = ["Player", "Alice", "Bob", "Carol"]


def _plain(renderable: Any, width: int = 80) -> str:
    console = Console(width=width, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def _note(app: TableApp) -> Note | None:
    return app.screen if isinstance(app.screen, Note) else None


def _menu(app: TableApp) -> list[str]:
    menu: Any = app.query_one("#menu")
    return [str(menu.get_option_at_index(n).prompt) for n in range(menu.option_count)]


def _highlighted(app: TableApp) -> str | None:
    menu: Any = app.query_one("#menu")
    n = menu.highlighted
    return None if n is None else str(menu.get_option_at_index(n).prompt)


# 1. Keys do what they show ------------------------------------------------------------------

def test_a_number_highlights_its_move_and_enter_plays_only_that() -> None:
    app = new_app("peel", 7)
    start: list[int] = []

    async def script(pilot: Any) -> tuple[int, str | None, str]:
        start.append(len(app.driver.actions))
        before = start[0]
        await pilot.press("enter")  # nothing highlighted yet: nothing is played
        await pilot.pause()
        played_by_enter = len(app.driver.actions) - before
        await pilot.press("3")
        await pilot.pause()
        third = _highlighted(app)
        label = _menu(app)[2]
        await pilot.press("enter")
        await pilot.pause()
        return played_by_enter, third, label

    played_by_enter, third, label = drive(app, (80, 24), script)
    assert played_by_enter == 0
    assert third == label and label.startswith("3) ")
    move = app.driver.actions[start[0]]
    assert move.split()[0] == label.split()[1], (move, label)  # "3) trade 2♦": a trade


def test_a_number_typed_after_a_move_starts_afresh() -> None:
    # "1" and Enter, then "1" within a second: the second "1" is the next menu's first entry,
    # not an "11" joined across the move (which made a quick player's game, and a golden
    # scene, take another path than a slow one's)
    app = new_app("widow", 7, confirm=False)

    async def script(pilot: Any) -> tuple[str, int, str]:
        await pilot.press("1")
        await pilot.pause()
        typed, moves = app._digits, len(app.driver.actions)
        await pilot.press("enter")
        await pilot.pause()
        return typed, len(app.driver.actions) - moves, app._digits

    typed, moved, after = drive(app, (80, 24), script)
    assert typed == "1" and moved > 0
    assert after == ""


def test_choosing_a_card_keeps_the_highlighted_move() -> None:
    app = new_app("peel", 7)

    async def script(pilot: Any) -> tuple[str | None, str | None]:
        card = app.view().hand[0].symbols
        for _ in range(10):  # down to the first move with the hand's first card
            await pilot.press("down")
            await pilot.pause()
            if card in (_highlighted(app) or "").split():
                break
        chosen = _highlighted(app)
        await pilot.press("right")  # the hand's first card: the same move stays highlighted
        await pilot.pause()
        return chosen, _highlighted(app)

    chosen, after = drive(app, (80, 24), script)
    assert chosen is not None and after is not None and "stand" not in chosen
    assert chosen.split(") ", 1)[1] == after.split(") ", 1)[1], (chosen, after)


def test_a_move_that_ends_the_deal_is_asked_about_once() -> None:
    app = new_app("peel", 7, confirm=True)
    start: list[int] = []

    async def script(pilot: Any) -> list[Any]:
        start.append(len(app.driver.actions))
        before = start[0]
        out: list[Any] = []
        await pilot.press("1", "enter")  # stand
        await pilot.pause()
        note = _note(app)
        out += [None if note is None else note.name, len(app.driver.actions) - before]
        await pilot.press("x")  # any other key: no
        await pilot.pause()
        out += [_note(app) is None, len(app.driver.actions) - before]
        await pilot.press("1", "enter")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        out.append(len(app.driver.actions) - before)
        return out

    asked, unplayed, closed, still, played = drive(app, (80, 24), script)
    assert asked == "confirm" and unplayed == 0 and closed and still == 0
    assert played >= 1 and app.driver.actions[start[0]] == "stand"


# 2. No crash ---------------------------------------------------------------------------------

@pytest.mark.parametrize("keys", [("space", "space"), ("enter", "enter"),
                                  ("space", "c", "enter", "space", "space")])
def test_quick_keys_on_a_note_never_crash(keys: tuple[str, ...], tmp_path: Path) -> None:
    from textual.events import Key

    app = new_app("widow", 3, tmp_path / "g.json")

    async def script(pilot: Any) -> tuple[bool, str | None]:
        await pilot.press("c")  # the scoreboard, over the table
        await pilot.pause()
        for key in keys:  # all at once, as a terminal delivers them: the note is closing
            app.post_message(Key(key, " " if key == "space" else None))
        await pilot.pause(0.2)
        note = _note(app)
        return bool(app.is_running), None if note is None else note.name

    running, note = drive(app, (80, 24), script)
    assert app._exception is None, app._exception
    assert running, note


def test_ctrl_c_at_the_table_saves_and_stops_with_130(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    app = new_app("peel", 7, path)

    async def script(pilot: Any) -> None:
        await pilot.press("2", "enter")
        await pilot.pause()
        await pilot.press("ctrl+c")
        await pilot.pause()

    drive(app, (80, 24), script)
    assert app.status == 130 and not app.is_running
    assert GameRecord.load(path).actions == app.driver.record().actions


def test_c_is_the_scoreboard_in_vingt_un_and_never_moves_the_menu() -> None:
    app = new_app("vingt-un", 2)

    async def script(pilot: Any) -> tuple[str | None, str | None]:
        before = _highlighted(app)
        await pilot.press("c")
        await pilot.pause()
        note = _note(app)
        return (None if note is None else note.name), before

    name, before = drive(app, (80, 24), script)
    assert name == "scoreboard" and before is None


# 3. The last deal is shown --------------------------------------------------------------------

def _last_stand(rules_id: str) -> tuple[Driver, Outcome]:
    """A game whose last deal the player ends by standing: the driver just before it."""
    rules = find_ruleset(rules_id)
    for seed in range(60):
        whole = Driver(rules, [make_bot("heuristic") for _ in NAMES], seed=seed, names=NAMES)
        whole.run()
        if whole.actions[-1] != "stand":
            continue
        driver = Driver(rules, [make_bot("heuristic") for _ in NAMES], seed=seed, names=NAMES)
        while len(driver.actions) < len(whole.actions) - 1:
            driver.step()
        d = driver.decision()
        if d is not None and d.seat == 0:
            driver.agents[0] = None
            outcome = whole.outcome()
            assert outcome is not None
            return driver, outcome
    raise AssertionError("no game ends with the player's stand in 60 seeds")


def test_the_players_own_stand_ending_the_last_deal_shows_its_showdown() -> None:
    driver, outcome = _last_stand("peel")
    app = TableApp(driver, 0, None, pace="instant", confirm=False)
    stand = next(i for i, a in enumerate(engine.legal_actions(driver.state))
                 if a.kind is ActionKind.STAND)

    async def script(pilot: Any) -> list[tuple[str, str]]:
        await pilot.pause()
        row = next(n for n, i in enumerate(app.shown) if i == stand)
        await pilot.press(str(row + 1), "enter")
        seen = []
        for _ in range(3):
            await pilot.pause()
            note = _note(app)
            if note is None:
                break
            seen.append((str(note.name), _plain(note.body)))
            if note.name == "end":
                break
            await pilot.press("space")
        return seen

    seen = drive(app, (80, 24), script)
    assert [name for name, _ in seen] == ["showdown", "end"], seen
    deals = outcome.details.get("deals") or len(app.deals)
    assert f"Deal {deals} is over." in seen[0][1], seen[0][1]
    totals = [sum(d.payoffs[x] for d in app.deals) for x in range(4)]
    assert totals == list(outcome.payoffs)  # the scoreboard agrees with the standing
    won = sum(len(d.winners) > 0 for d in app.deals)
    assert won == len(app.deals)


# 4. The showdown says why ---------------------------------------------------------------------

def test_the_showdown_says_what_decided_each_comparison() -> None:
    from commerce.cards import parse_cards
    from commerce.cli.table.screens import why_lines

    rules = find_ruleset("widow")
    hands = (tuple(parse_cards("9S 8D 9C")), tuple(parse_cards("TS 7D 9H")),
             tuple(parse_cards("KS KD 2C")), tuple(parse_cards("TH 6D 3C")))
    e = Event("showdown", None, (("hands", hands), ("categories", ("pair", "point", "pair",
                                                                   "point")),
                                 ("winners", (2,))))
    lines = why_lines([e], ["You", "Alice", "Bob", "Carol"], rules)
    assert lines == ["Bob beats you: pair of Ks beats pair of 9s.",
                     "Bob beats Alice: a pair beats a point.",
                     "Bob beats Carol: a pair beats a point.",
                     # a token game: the lowest hand loses a token
                     "The lowest hand is Carol's: point of 26 pips beats point of 19 pips."], lines
    points = Event("showdown", None, (("hands", (hands[1], hands[3])),
                                      ("categories", ("point", "point")), ("winners", (0,))))
    assert why_lines([points], ["You", "Alice"], rules) == [
        "You beat Alice: point of 26 pips beats point of 19 pips."]


def test_a_deals_showdown_at_the_table_says_why_and_who_was_paid() -> None:
    app = new_app("peel", 7)

    async def script(pilot: Any) -> str:
        for _ in range(60):
            note = _note(app)
            if note is not None and note.name == "showdown":
                return _plain(note.body)
            await pilot.press("1", "enter")  # stand at once
            await pilot.pause()
        return ""

    text = drive(app, (80, 24), script)
    assert "Why: " in text and " beats " in text, text
    assert " pay" in text and "This deal: " in text


# 5. Words: one name for the player ----------------------------------------------------------

def test_the_player_is_you_everywhere_and_the_grammar_holds() -> None:
    assert you_inside("Alice offers You a barter.") == "Alice offers you a barter."
    assert you_inside("You stand. Bob pays You 1.") == "You stand. Bob pays you 1."
    rules = find_ruleset("peel")
    driver = Driver(rules, [make_bot("heuristic") for _ in NAMES], seed=5, names=NAMES)
    driver.run()
    driver.agents[0] = None
    app = TableApp(driver, 0, None, pace="instant")

    async def script(pilot: Any) -> tuple[str, str]:
        await pilot.pause()
        while (note := _note(app)) is not None and note.name != "end":
            await pilot.press("space")
            await pilot.pause()
        assert note is not None
        end = _plain(note.body)
        return end, _plain(app.scores())

    end, board = drive(app, (80, 24), script)
    assert "Player" not in end + board and "You" in end and "You" in board, end + board
    assert "Player" not in app.result_line() and "You" in app.result_line()


# 6. Units -----------------------------------------------------------------------------------

def test_every_figure_is_in_the_familys_unit_singular_and_plural() -> None:
    assert amount(1, "stakes") == "+1 stake" and amount(-3, "counters") == "-3 counters"
    assert times("every player has dealt 1 time(s)") == "every player has dealt once"
    deals = [DealSummary(1, (2.0, -1.0, -1.0), (), (), None, 9),
             DealSummary(2, (-1.0, -1.0, 2.0), (), (), None, 19)]
    board = _plain(scoreboard("deal", deals, ["You", "Alice", "Bob"], "counters"))
    assert "counters" in board and "dealer" in board and "won by" not in board, board
    assert any(line.split()[:3] == ["1", "│", "Alice"] for line in board.splitlines()), board
    outcome = Outcome((1, 0, -1), "the deals are over")
    end = _plain(end_text(outcome, ["You", "Alice", "Bob"], deals, "deal", "counters"))
    assert "deals won" not in end and "+1 counter" in end and "-1 counter" in end, end


def test_vingt_un_counts_counters_at_the_table() -> None:
    app = new_app("vingt-un", 2)

    async def script(pilot: Any) -> str:
        await pilot.pause()
        return _plain(app.scores())

    board = drive(app, (80, 24), script)
    assert "counters" in board and "stakes" not in board


def test_players_out_of_a_token_game_rank_by_when_they_went_out() -> None:
    # seats 1 and 3 both end at -3; seat 3 went out in deal 7, seat 1 in deal 4
    outcome = Outcome((6, -3, 0, -3), "one player left",
                      {"out_in": (None, 4, None, 7)})
    assert standing(outcome, 4) == [0, 2, 3, 1]
    end = _plain(end_text(outcome, ["You", "Alice", "Bob", "Carol"], [], "deal", "tokens"))
    assert end.index("Carol") < end.index("Alice") and "out in deal 4" in end, end


# 7. It fits ---------------------------------------------------------------------------------

def _fits(app: TableApp) -> list[str]:
    """What does not fit: a seat row on a second line, a log line past the pane."""
    bad = []
    seats: Any = app.query_one("#seats")
    if seats.size.height != len(app.view().seats):
        bad.append(f"seats take {seats.size.height} rows for {len(app.view().seats)}")
    log: Any = app.query_one("#log")
    width = log.scrollable_content_region.width
    wide = [line.text for line in log.lines if line.cell_length > width]
    if wide:
        bad.append(f"log lines wider than {width}: {wide[:2]}")
    top: Any = app.query_one("#top")
    if cell_len(str(top.render())) > app.size.width:
        bad.append("the header is cut")
    return bad


@pytest.mark.parametrize("rules_id,seed", [("cox", 2), ("vingt-un", 2), ("widow", 3),
                                           ("pounce", 4)])
def test_seat_rows_fit_at_80_columns_through_a_deal(rules_id: str, seed: int) -> None:
    app = new_app(rules_id, seed)

    async def script(pilot: Any) -> list[str]:
        bad: list[str] = []
        for _ in range(40):
            await pilot.pause()
            bad += _fits(app)
            if app.driver.outcome() is not None:
                break
            await pilot.press("space" if _note(app) else "2", "enter")
        return bad

    assert drive(app, (80, 24), script) == []


def test_the_log_wraps_anew_when_the_terminal_narrows() -> None:
    app = new_app("peel", 7)

    async def script(pilot: Any) -> list[str]:
        await pilot.press("2", "enter", "1", "enter")
        await pilot.pause()
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        return _fits(app)

    assert drive(app, (120, 40), script) == []


def test_the_log_scrolls_from_the_keyboard() -> None:
    app = new_app("widow", 3)

    async def script(pilot: Any) -> tuple[float, float, float]:
        log: Any = app.query_one("#log")
        for n in range(40):
            app.say(f"line {n} of a long log")
        await pilot.pause()
        bottom = log.scroll_y
        await pilot.press("pageup")
        await pilot.pause()
        up = log.scroll_y
        await pilot.press("pagedown")
        await pilot.pause()
        return bottom, up, log.scroll_y

    bottom, up, down = drive(app, (80, 24), script)
    assert up < bottom and down > up, (bottom, up, down)


def test_a_small_terminal_is_asked_to_grow() -> None:
    app = new_app("widow", 3)

    async def script(pilot: Any) -> tuple[bool, bool, int]:
        await pilot.pause()
        small: Any = app.query_one("#small")
        asked = small.display and "at least 80x24" in str(small.render())
        before = len(app.driver.actions)
        await pilot.press("1", "enter")  # nothing is played on a table the player cannot see
        await pilot.pause()
        played = len(app.driver.actions) - before
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        return bool(asked), bool(small.display), played

    asked, still, played = drive(app, (40, 12), script)
    assert asked and not still and played == 0


def test_the_menu_uses_the_room_of_a_tall_terminal() -> None:
    app = new_app("widow", 3)

    async def script(pilot: Any) -> tuple[int, int]:
        await pilot.pause()
        menu: Any = app.query_one("#menu")
        return menu.option_count, menu.size.height

    count, height = drive(app, (120, 40), script)
    assert count > 7 and height >= count, (count, height)


# 8. Waiting is visible ------------------------------------------------------------------------

def test_a_hint_shows_at_once_that_it_is_worked_out_and_esc_cancels_it() -> None:
    app = new_app("widow", 3)
    app.hint_ms = 5000.0  # the first hint: still being worked out when Esc comes
    start: list[int] = []
    said: list[bool] = []

    async def script(pilot: Any) -> tuple[str | None, str | None, str | None]:
        start.append(len(app.driver.actions))
        await pilot.pause()
        app.action_hint()  # "h"; the note is up before the event loop runs again
        waiting = _note(app)
        first = None if waiting is None else waiting.name
        if waiting is not None:
            waiting.close("escape")  # Esc, before the hint is worked out
        await pilot.pause()
        after = _note(app)
        log: Any = app.query_one("#log")
        said.append(any("cancelled" in line.text for line in log.lines))
        app.hint_ms = 300.0  # a short search for the second (its kernels may compile first)
        await pilot.press("h")
        for _ in range(1200):  # at most two minutes (a cold start compiles the kernels)
            await pilot.pause(0.1)
            if (note := _note(app)) is not None and note.name == "hint":
                break
        note = _note(app)
        return first, None if after is None else after.name, None if note is None else note.name

    first, after, final = drive(app, (80, 24), script)
    assert first == "hint-wait" and after is None and final == "hint", (first, after, final)
    assert len(app.driver.actions) == start[0] and said == [True]


# 9. Cox ---------------------------------------------------------------------------------------

def _before_a_forced_decline() -> TableApp:
    """Cox's game one move before the player is offered a discard they cannot buy, at the
    normal pace (the table is drawn after each computer player's move)."""
    rules = find_ruleset("cox")
    for seed in range(30):
        driver = Driver(rules, [make_bot("heuristic") for _ in NAMES], seed=seed, names=NAMES)
        while driver.outcome() is None:
            before = driver.record().actions
            d = driver.decision()
            driver.step()
            now = driver.decision()
            if (d is not None and d.seat not in (None, 0) and now is not None and now.seat == 0
                    and now.kind is DecisionKind.BUY_OFFER
                    and len(engine.legal_actions(driver.state)) == 1):
                again = Driver(rules, [None, *(make_bot("heuristic") for _ in NAMES[1:])],
                               seed=seed, names=NAMES)
                while len(again.actions) < len(before):
                    again.agents[0] = make_bot("heuristic")
                    again.step()
                again.agents[0] = None
                return TableApp(again, 0, None, pace="normal")
    raise AssertionError("no forced decline in 30 games")


def test_cox_never_asks_when_only_decline_is_possible() -> None:
    app = _before_a_forced_decline()
    seen: list[str] = []
    app.notify = lambda message, **kw: seen.append(str(message))  # type: ignore[method-assign]

    async def script(pilot: Any) -> None:
        await pilot.pause(0.3)  # the computer player's move drawn, the pace's wait running

    drive(app, (80, 24), script)
    assert not any("buy" in m.lower() for m in seen), seen


def test_cox_shows_what_the_players_holding_counts() -> None:
    app = new_app("cox", 7)
    assert app.view().hand_note.startswith("counts ")

    async def script(pilot: Any) -> str:
        await pilot.pause()
        hand: Any = app.query_one("#hand")
        return str(hand.render())

    assert "counts " in drive(app, (80, 24), script)
