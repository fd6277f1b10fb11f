"""``commerce play`` and ``commerce replay``: the game in the terminal.

The user sits in seat 0 against computer players. The record is saved after every action the
user makes and when the game ends, quits or the terminal closes, so ``--resume FILE`` always
continues where it stopped.
"""

from __future__ import annotations

import argparse
import signal
import sys
import time
from pathlib import Path
from types import FrameType
from typing import Any

from commerce.cli import (
    BOTS_HELP,
    PLAYERS,
    SEED,
    add_rules_arguments,
    file_name,
    int_in,
    resolve_rules,
    seat_name,
    span,
)

_COMMON_HELP = """  hint                      the search bot's choice and how it rates each move
  help | ?                  this help;   quit | q   save and stop
Or type the number of an action in the list."""

HELP = {
    "trading": """Type an action by its number from the list, or in words:
  stand | s                 stand: everyone shows their hands
  trade CARD | t CARD       trade CARD for ready money (e.g. 't 7h')
  barter CARD | b CARD      offer CARD to your neighbour
  give CARD | g CARD        give CARD back to the player who offered a barter
  done | d                  end your turn without standing
Cards: rank A K Q J T (or 10) 9 ... 2 and suit S H D C (or ♠♥♦♣), e.g. AS 10h T♦.
""",
    "widow": """Type an action by its number from the list, or in words:
  exchange CARD for CARD | x CARD for CARD
                            give a card of yours to the widow and take one of the widow's
                            (e.g. 'x 7h for qs'); swap up to three this way, then 'done'
  done | d                  end your exchanges for this turn
  pass | p                  take no card
  knock | k                 you are content: everyone else has a final turn
  stand                     (Old Game) you are content
  pounce | decline          take the fourth card of your tricon, or let it go
Cards: rank A K Q J T (or 10) 9 ... 2 and suit S H D C (or ♠♥♦♣), e.g. AS 10h T♦.
""",
    "cox": """Type an action by its number from the list, or in words:
  draw | d                  draw the top card of the supply
  buy | i buy               buy the last discard
  discard CARD              discard a card face up (e.g. 'discard A3')
  sell out CARD | i sell out   sell out, discarding CARD
  decline                   let the discard go
Cards: A1-A5 Automobiles, S1-S5 Ships, P1-P5 Aeroplanes, AC SC PC Captains, BK the Bank,
F1-F4 Fruit, G1-G4 Grain, I1-I4 Industries, M1-M4 Greenbacks.
""",
}

_SHORT = {
    "trading": {"s": "stand", "t": "trade", "b": "barter", "g": "give", "d": "done"},
    "widow": {"x": "exchange", "p": "pass", "k": "knock", "d": "done"},
    "cox": {"d": "draw", "b": "buy"},
}


def configure_play(p: argparse.ArgumentParser) -> None:
    """Arguments of ``commerce play``."""
    add_rules_arguments(p)
    p.add_argument("--players", type=int_in(*PLAYERS), default=None,
                   help=f"seats at the table, {span(PLAYERS)} within the ruleset's range "
                        "(default 4)")
    p.add_argument("--bot", default="heuristic",
                   help="computer players: random, heuristic, or a comma list (default "
                        "heuristic); " + BOTS_HELP)
    p.add_argument("--seed", type=int_in(*SEED), default=None,
                   help=f"make the whole session reproducible, {span(SEED)}")
    p.add_argument("--name", type=seat_name, default="Player",
                   help="your name at the table, at most 200 characters (default Player)")
    p.add_argument("--save", metavar="FILE", type=file_name, default=None,
                   help="where to save the record (default games/<rules>-<time>.json)")
    p.add_argument("--resume", metavar="FILE", type=file_name, default=None,
                   help="continue a saved game")


def configure_replay(p: argparse.ArgumentParser) -> None:
    """Arguments of ``commerce replay``."""
    p.add_argument("file", metavar="FILE", type=file_name, help="a saved game record")
    p.add_argument("--all", action="store_true",
                   help="print the whole game at once instead of stepping with Enter")


class _Closed(Exception):
    """The terminal went away (hang-up)."""


def run_play(args: argparse.Namespace) -> int:
    """Play a game in the terminal."""
    from commerce.bots import make_bot
    from commerce.driver import Driver
    from commerce.errors import CommerceError
    from commerce.record import GameRecord

    if args.resume:
        record = GameRecord.load(args.resume)
        if record.complete:
            raise CommerceError(f"{args.resume}: that game is over; see it with "
                                f"'commerce replay {args.resume}'")
        humans = [i for i, s in enumerate(record.seats) if s.agent == "human"]
        if len(humans) != 1:
            raise CommerceError(f"{args.resume}: expected one human seat, found {len(humans)}")
        agents = [None if s.agent == "human" else make_bot(s.agent) for s in record.seats]
        driver = Driver.resume(record, agents)
        human = humans[0]
        path = Path(args.resume)
    else:
        rules = resolve_rules(args)
        players = args.players if args.players is not None else max(
            min(4, rules.max_players), rules.min_players)
        if players not in rules.player_range():
            raise CommerceError(f"{rules.name} is for {rules.min_players} to "
                                f"{rules.max_players} players, not {players}")
        specs = [b.strip() for b in args.bot.split(",") if b.strip()] or ["heuristic"]
        bots = [make_bot(specs[i % len(specs)]) for i in range(players - 1)]
        seed = args.seed if args.seed is not None else int(time.time() * 1000) % 2**31
        names = [args.name, *(_bot_name(i, b.name) for i, b in enumerate(bots, 1))]
        driver = Driver(rules, [None, *bots], seed=seed, names=names)
        human = 0
        path = Path(args.save) if args.save else Path("games") / (
            f"{rules.id}-{time.strftime('%Y%m%d-%H%M%S')}-seed{seed}.json")
        try:  # now, rather than after the first move
            driver.record().save(path)
        except (OSError, ValueError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
            raise CommerceError(f"{path}: cannot save the game there ({reason})") from None
    return _session(driver, human, path)


def _bot_name(i: int, kind: str) -> str:
    return ["Alice", "Bob", "Carol", "Dan", "Eve", "Frank", "Grace", "Hal", "Ivy", "Jack",
            "Kate"][(i - 1) % 11]


def _session(driver: Any, human: int, path: Path) -> int:
    from commerce import engine
    from commerce.cli.textview import describe_event, render

    names = driver.names
    family = driver.rules.family

    def show(events: tuple[Any, ...]) -> None:
        for e in events:
            if e.visible(human):
                line = describe_event(e, names, human, family)
                if line:
                    print(line)

    def save() -> None:
        driver.record().save(path)

    def hangup(signum: int, frame: FrameType | None) -> None:
        raise _Closed()

    previous = signal.signal(signal.SIGHUP, hangup) if hasattr(signal, "SIGHUP") else None
    print(f"Commerce: {driver.rules.name}, {driver.players} players, seed {driver.seed}. "
          f"Type ? for help.")
    print("Computer players: " + ", ".join(
        f"{names[i]} ({a.name})" for i, a in enumerate(driver.agents) if a is not None))
    try:
        show(tuple(driver.events))
        driver.on_events = show
        while True:
            driver.run()
            if driver.outcome() is not None:
                break
            seat = driver.waiting_for_human()
            assert seat == human
            forced = _forced(driver)
            if forced is not None:
                driver.act(human, forced)
                continue
            print()
            print(render(engine.observe(driver.state, human), names))
            action = _ask(driver, human)
            if action is None:
                save()
                print(f"Saved to {path}. Continue with: commerce play --resume {path}")
                return 0
            driver.act(human, action)
            save()
    except (_Closed, EOFError, KeyboardInterrupt):
        save()
        print(f"\nSaved to {path}. Continue with: commerce play --resume {path}",
              file=sys.stderr)
        return 130 if not isinstance(sys.exc_info()[1], EOFError) else 0
    finally:
        if previous is not None:
            signal.signal(signal.SIGHUP, previous)
    save()
    result = driver.outcome()
    print()
    print("Final result:")
    for seat, net in sorted(enumerate(result.payoffs), key=lambda x: -x[1]):
        print(f"  {names[seat]:<20} {net:+d}")
    print(f"Record saved to {path}")
    return 0


def _forced(driver: Any) -> Any:
    """The one legal action when it is only a 'decline' or 'done': played without asking."""
    from commerce import engine
    from commerce.core import ActionKind

    legal = engine.legal_actions(driver.state)
    if len(legal) == 1 and legal[0].kind in (ActionKind.DECLINE, ActionKind.DONE):
        return legal[0]
    return None


def _ask(driver: Any, seat: int) -> Any:
    """Prompt until the user names a legal action; None to quit."""
    from commerce import engine
    from commerce.errors import CommerceError

    family = driver.rules.family.value
    legal = engine.legal_actions(driver.state)
    labels = [engine.format_action(driver.rules, a) for a in legal]
    labels = _family_labels(driver, seat, legal, labels)
    menu = "  ".join(f"{i}) {label}" for i, label in enumerate(labels, 1))
    while True:
        print(menu)
        text = input("Your move> ").strip()
        if not text:
            continue
        low = text.lower()
        if low in ("q", "quit", "exit"):
            return None
        if low in ("?", "h", "help"):
            print(HELP[family] + _COMMON_HELP)
            continue
        if low == "hint":
            try:
                print(_hint(driver, seat, legal, labels))
            except CommerceError:
                print(f"Hints are not available for {driver.rules.name} yet.")
            continue
        if low.isdigit():
            n = int(low)
            if 1 <= n <= len(legal):
                return legal[n - 1]
            print(f"Choose a number from 1 to {len(legal)}.")
            continue
        text = _phrase(driver, legal, text)
        words = text.split()
        words[0] = _SHORT[family].get(words[0].lower(), words[0])
        try:
            action = engine.parse_action(driver.state, " ".join(words))
            engine.check(driver.state, action, seat=seat)
        except CommerceError as exc:
            print(f"Not possible: {exc}")
            continue
        return action


_PHRASES = (("i sell out", "sell_out"), ("sell out", "sell_out"), ("i sell", "sell_out"),
            ("sell", "sell_out"), ("i buy", "buy"))


def _phrase(driver: Any, legal: Any, text: str) -> str:
    """Natural phrases as actions: "I buy" is ``buy``, "I sell out A1" is ``sell_out A1``, and
    "I sell out" alone is the one sell-out there is."""
    from commerce import engine
    from commerce.core import ActionKind

    low = " ".join(text.lower().split())
    for phrase, word in _PHRASES:
        if low == phrase or low.startswith(phrase + " "):
            rest = low[len(phrase):].strip()
            sells = [a for a in legal if a.kind is ActionKind.SELL_OUT]
            if word == "sell_out" and not rest and len(sells) == 1:
                return str(engine.format_action(driver.rules, sells[0]))
            return f"{word} {rest}".strip()
    return text


def _family_labels(driver: Any, seat: int, legal: Any, labels: list[str]) -> list[str]:
    """Menu labels in words where the family module has ``action_label(action, obs)``."""
    import importlib

    from commerce import engine
    from commerce.rules import Family

    family = driver.rules.family
    if family is Family.TRADING:
        return labels
    fn = getattr(importlib.import_module(f"commerce.families.{family.value}"), "action_label",
                 None)
    if fn is None:
        return labels
    obs = engine.observe(driver.state, seat)
    return [str(fn(a, obs)) for a in legal]


def _hint(driver: Any, seat: int, legal: Any, labels: list[str]) -> str:
    """The search bot's view of each legal action, from the player's observation only."""
    import random

    from commerce import engine
    from commerce.bots.search import best_index, default_iterations, search_hint

    obs = engine.observe(driver.state, seat)
    rng = random.Random(f"hint/{driver.seed}/{len(driver.actions)}")
    # 0.8 of the bot's default budget per legal action (400 each in the trading games)
    budget = default_iterations(driver.rules.family, driver.rules) * 4 * len(legal) // 5
    hints = search_hint(obs, legal, rng, iterations=budget)
    estimates = [e for _, e in hints]
    best = best_index(estimates)
    gain = {
        "trading": "expected change of your stakes by the end of the deal",
        "widow": "expected change of your stakes or tokens by the end of the deal",
        "cox": "expected points of this hand, less the others' average",
    }[driver.rules.family.value]
    deal = "hand" if driver.rules.family.value == "cox" else "deal"
    lines = [f"The search bot's estimates (gain: {gain}; win: chance to win the {deal}):"]
    width = max(len(label) for label in labels)
    for i, (label, e) in enumerate(zip(labels, estimates, strict=True)):
        mark = "  <- best" if i == best else ""
        lines.append(f"  {i + 1}) {label:<{width}} gain {e.value:+6.2f}  win {e.win:4.0%}{mark}")
    return "\n".join(lines)


def run_replay(args: argparse.Namespace) -> int:
    """Step through a saved game, every hand visible."""
    from commerce import engine
    from commerce.cli.textview import describe_event, render
    from commerce.record import GameRecord, replay_steps

    record = GameRecord.load(args.file)
    names = [s.name for s in record.seats] or [f"Seat {i}" for i in range(record.players)]
    family = record.rules.family
    interactive = not args.all and sys.stdin.isatty()
    print(f"{record.rules.name}: {record.players} players, {len(record.actions)} actions"
          f"{'' if record.complete else ' (unfinished)'}. "
          + ("Enter: next, q: quit." if interactive else ""))
    state = engine.new_game(record.rules, record.players, dealer=record.dealer)
    for e in getattr(state, "log", ()):
        line = describe_event(e, names, None, family)
        if line:
            print(line)
    for i, (action, transition) in enumerate(replay_steps(record), 1):
        d = engine.decision(state)
        who = "chance" if d is None or d.seat is None else names[d.seat]
        print(f"[{i}] {who}: {engine.format_action(record.rules, action)}")
        for e in transition.events:
            line = describe_event(e, names, None, family)
            if line:
                print("    " + line.replace("\n", "\n    "))
        state = transition.state
        if interactive:
            print(render(engine.reveal_all(state), names))
            try:
                if input().strip().lower() in ("q", "quit"):
                    return 0
            except EOFError:
                return 0
    result = engine.outcome(state)
    if result is not None:
        print("Final result: " + ", ".join(
            f"{names[s]} {p:+d}" for s, p in enumerate(result.payoffs)))
    return 0
