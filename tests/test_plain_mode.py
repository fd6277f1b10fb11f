"""The plain (line) interface: menus that fit 80 columns, grouped, in words; no identifier
from the code reaches the player; line editing and history at a terminal."""

from __future__ import annotations

import io
import re
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from commerce import engine
from commerce.bots import make_bot
from commerce.cli import main
from commerce.cli.menu import family_labels, humanize, menu_groups, menu_lines, wrap_text
from commerce.cli.textview import describe_event, render
from commerce.driver import Driver
from commerce.rules import find_ruleset
from tests.harness import all_rulesets

IDENTIFIER = re.compile(r"\b[a-z]+_[a-z_]+\b")
"""A word of the code: two lower-case words joined by an underscore (``buy_horse``)."""


@cache
def _decisions(rules_id: str) -> tuple[tuple[list[str], list[Any], list[str]], ...]:
    """Sampled decisions of a ruleset's players: (labels, groups, the screen's text) for
    every decision of every seat in a few games of random bots at 3 and the most players
    (at most 6), a few hundred steps each."""
    rules = find_ruleset(rules_id)
    out = []
    for seed, players in ((0, rules.min_players), (1, min(rules.max_players, 6)), (2, 4)):
        if players not in rules.player_range():
            continue
        d = Driver(rules, [make_bot("random")] * players, seed=seed)
        for _ in range(500):
            if d.outcome() is not None:
                break
            dec = d.decision()
            if dec is not None and dec.seat is not None:
                legal = engine.legal_actions(d.state)
                labels = family_labels(d, dec.seat, legal,
                                        [engine.format_action(rules, a) for a in legal])
                screen = [render(engine.observe(d.state, dec.seat), d.names)]
                screen += [describe_event(e, d.names, dec.seat, rules.family) or ""
                           for e in d.visible_events(dec.seat)[-20:]]
                out.append((labels, menu_groups(d, dec.seat, legal) or [None] * len(legal),
                            screen))
            d.step()
    return tuple(out)


def _ids() -> list[str]:
    return [r.id for r in all_rulesets()]


@pytest.mark.parametrize("rules_id", _ids())
def test_no_menu_line_is_broken_mid_word_at_80_columns(rules_id: str) -> None:
    decisions = _decisions(rules_id)
    assert decisions, "no decision was sampled"
    for labels, groups, _ in decisions:
        lines = menu_lines(labels, groups, 80)
        assert all(len(line) <= 80 for line in lines), lines
        for i, (label, group) in enumerate(zip(labels, groups, strict=True), 1):
            entry = f"{i}) {humanize(label) if group is None else group.short}"
            # every entry stands whole on one line, and a group's heading opens its line
            assert any(entry in line for line in lines), (entry, lines)
            if group is not None:
                assert any(line.startswith(humanize(group.heading) + ":") and entry in line
                           for line in lines), (entry, lines)


@pytest.mark.parametrize("rules_id", _ids())
def test_no_identifier_from_the_code_reaches_the_player(rules_id: str) -> None:
    for labels, groups, screen in _decisions(rules_id):
        text = "\n".join(menu_lines(labels, groups) + [humanize(s) for s in screen])
        assert not IDENTIFIER.search(text), IDENTIFIER.search(text)


def test_the_widow_games_exchanges_are_grouped_by_the_card_given() -> None:
    widest = max((d for d in _decisions("widow")), key=lambda d: len(d[0]))
    labels, groups, _ = widest
    lines = menu_lines(labels, groups)
    assert len(labels) >= 10 and len(lines) <= 5, lines
    assert sum(line.startswith("give ") for line in lines) == 3, lines


def test_menu_packs_whole_entries_and_breaks_only_overlong_ones() -> None:
    labels = [f"exchange {c}S for {c}H" for c in "23456789"]
    lines = menu_lines(labels, None, 40)
    assert all(len(line) <= 40 for line in lines)
    assert all(re.fullmatch(r"(\d\) exchange \dS for \dH ?)+", line.replace("  ", " "))
               for line in lines), lines
    long = menu_lines(["a very long entry " * 4], None, 30)
    assert all(len(line) <= 30 for line in long) and len(long) == 3
    assert wrap_text("x" * 90, 80) == ["x" * 90]  # one word longer than a line stays whole


def _session(monkeypatch: Any, capsys: Any, tmp_path: Path, rules: str,
             lines: list[str]) -> str:
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(s + "\n" for s in lines)))
    code = main(["play", "--rules", rules, "--seed", "5", "--players", "3", "--plain",
                 "--save", str(tmp_path / "g.json")])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


@pytest.mark.parametrize("rules_id,typed", [
    ("cox", ["sell_out A1", "discard ZZ", "buy"]),
    ("pool", ["buy_horse", "exchange 2s for 3h"]),
    ("peel", ["trade ZZ", "barter"]),
])
def test_a_plain_session_speaks_words_and_fits_80_columns(monkeypatch: Any, capsys: Any,
                                                          tmp_path: Path, rules_id: str,
                                                          typed: list[str]) -> None:
    out = _session(monkeypatch, capsys, tmp_path, rules_id,
                   ["?", "hint", *typed, "1", "1", "q"])
    assert "Not possible:" in out and "Your move>" in out
    assert not IDENTIFIER.search(out), IDENTIFIER.search(out)
    for line in out.replace("Your move> ", "\n").splitlines():
        if str(tmp_path) not in line:  # where the game is saved: a path is not broken
            assert len(line) <= 80 or " " not in line.strip(), line


def test_a_terminal_gets_line_editing_and_history() -> None:
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from commerce.cli.lines import prompt_reader

    with create_pipe_input() as pipe:
        read = prompt_reader("trading", pt_input=pipe, pt_output=DummyOutput())
        pipe.send_text("trade 7h\r")
        assert read("Your move> ") == "trade 7h"
        # up recalls the line; backspace and typing edit it
        pipe.send_text("\x1b[A\x7fs\r")
        assert read("Your move> ") == "trade 7s"
        # left moves within the line: the 7 becomes an 8
        pipe.send_text("\x1b[A\x1b[D\x7f8\r")
        assert read("Your move> ") == "trade 8s"
        pipe.send_text("\x1b[A\x1b[A\x1b[A\r")  # three lines back: the first
        assert read("Your move> ") == "trade 7h"


def test_a_signal_while_the_prompt_starts_or_ends_waits_for_a_safe_place() -> None:
    """A signal inside prompt_toolkit's start or end would be raised inside its half-built
    event loop: it ends the prompt once it waits, or at the session's next check."""
    import signal

    import pytest
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from commerce.cli.lines import Closed, Stop, prompt_reader

    stop = Stop()
    with create_pipe_input() as pipe:
        read = prompt_reader("trading", stop, pt_input=pipe, pt_output=DummyOutput())
        pipe.send_text("trade 7h\r")  # a line is there: only the signal can stop the read
        with pytest.raises(Closed) as info, stop.waiting():
            stop.handler(signal.SIGHUP, None)  # the prompt is not running yet: kept
            read("Your move> ")
        assert info.value.signum == signal.SIGHUP

    stop = Stop()
    with create_pipe_input() as pipe:
        read = prompt_reader("trading", stop, pt_input=pipe, pt_output=DummyOutput())
        pipe.send_text("trade 7h\r")
        with stop.waiting():
            assert read("Your move> ") == "trade 7h"
            stop.handler(signal.SIGTERM, None)  # the prompt has ended: kept for the check
        with pytest.raises(Closed) as info:
            stop.check()
        assert info.value.signum == signal.SIGTERM


def test_a_terminal_that_fails_while_the_prompt_waits_ends_the_read(caplog: Any) -> None:
    """Writing to a terminal that has gone away fails inside prompt_toolkit's event loop (a
    redraw after a key): the read ends with that error, which the session reports, instead
    of asyncio printing it and the prompt waiting on."""
    import errno
    import threading
    import time

    import pytest
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from commerce.cli.lines import Stop, prompt_reader

    class Gone(DummyOutput):
        gone = False

        def flush(self) -> None:
            if self.gone:
                raise OSError(errno.EIO, "Input/output error")

    def close_then_type(pipe: Any, out: Gone) -> None:
        time.sleep(0.2)  # the prompt waits: keys now come to its event loop's callbacks
        out.gone = True
        pipe.send_text("t")  # redrawn in a callback, which fails
        time.sleep(0.3)
        pipe.send_text("\r")  # a prompt still waiting takes the line

    out = Gone()
    with create_pipe_input() as pipe:
        read = prompt_reader("trading", Stop(), pt_input=pipe, pt_output=out)
        typist = threading.Thread(target=close_then_type, args=(pipe, out))
        typist.start()
        try:
            with pytest.raises(OSError) as info:
                read("Your move> ")
        finally:
            typist.join()
    assert info.value.errno == errno.EIO
    # asyncio logs an exception no one handled (a program without logging set up prints it)
    assert not [r for r in caplog.records if r.name == "asyncio"], caplog.text


def test_rules_that_are_not_on_a_terminal_read_with_input() -> None:
    from commerce.cli.lines import line_reader

    assert line_reader("widow") is input  # under pytest, stdin is not a terminal



def test_plain_help_tells_what_beats_what_and_the_decision_at_hand(
        monkeypatch: Any, capsys: Any, tmp_path: Path) -> None:
    out = " ".join(_session(monkeypatch, capsys, tmp_path, "peel", ["?", "q"]).split())
    assert "Hands, best first: tricon, e.g. A♠ A♥ A♦; sequence" in out, out
    assert "Now: Your right-hand neighbour offers you a card in barter." in out
