"""``commerce simulate`` and ``commerce bench``."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from commerce.cli import (
    BOTS_HELP,
    GAMES,
    PLAYERS,
    SECONDS,
    SEED,
    add_rules_arguments,
    float_in,
    int_in,
    resolve_rules,
    span,
)


def configure_simulate(p: argparse.ArgumentParser) -> None:
    """Arguments of ``commerce simulate``."""
    add_rules_arguments(p)
    p.add_argument("--players", type=int_in(*PLAYERS), default=4,
                   help=f"seats at the table, {span(PLAYERS)} within the ruleset's range "
                        "(default 4)")
    p.add_argument("--games", type=int_in(*GAMES), default=100,
                   help=f"games (sessions) to play, {span(GAMES)} (default 100)")
    p.add_argument("--seed", type=int_in(*SEED), default=0,
                   help=f"master seed, {span(SEED)} (default 0)")
    p.add_argument("--bots", default="random,heuristic",
                   help="comma list of bots, cycled over the seats (default random,heuristic); "
                        + BOTS_HELP)
    p.add_argument("--json", action="store_true", help="print one JSON object")


def configure_bench(p: argparse.ArgumentParser) -> None:
    """Arguments of ``commerce bench``."""
    p.add_argument("--seconds", type=float_in(*SECONDS), default=1.0,
                   help=f"time spent on each figure's repeat, {span(SECONDS)} (default 1.0)")
    p.add_argument("--rules", default="peel", metavar="IDS",
                   help="presets timed in random playouts at 4 players, one row each (the "
                        "median of 5 runs of --seconds): a comma list, or 'all' (default peel)")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def run_simulate(args: argparse.Namespace) -> int:
    """Play bot games and print per-seat results."""
    from commerce.bots import make_bot
    from commerce.errors import CommerceError
    from commerce.simulate import simulate

    rules = resolve_rules(args)
    if args.games < 1:
        raise CommerceError("--games must be at least 1")
    if args.players not in rules.player_range():
        raise CommerceError(
            f"{rules.name} is for {rules.min_players} to {rules.max_players} players, "
            f"not {args.players}"
        )
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    if not bots:
        raise CommerceError("give at least one bot, e.g. --bots random,heuristic")
    for spec in bots:
        make_bot(spec)  # validate before playing
    result = _with_progress(
        args.games,
        lambda progress: simulate(rules, players=args.players, games=args.games,
                                  seed=args.seed, bots=bots, progress=progress),
    )
    if args.json:
        print(json.dumps(result))
        return 0
    _print_table(result)
    return 0


def _with_progress(total: int, work: Any) -> Any:
    if not sys.stderr.isatty():
        return work(None)
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    with Progress("[progress.description]{task.description}", BarColumn(),
                  MofNCompleteColumn(), TimeRemainingColumn(),
                  console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("games", total=total)
        return work(lambda done: bar.update(task, completed=done))


def _print_table(result: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{result['rules']}: {result['games']} games, "
                        f"{result['players']} players, seed {result['seed']}")
    extra = [k for k in result["seats"][0] if k not in ("seat", "bot", "net", "wins")]
    labels = {"went_out_games": "went out", "went_out_mean_deal": "out at deal",
              "tokens": "tokens left"}
    for col in ("seat", "bot", "net", "per game", "wins", *extra):
        table.add_column(labels.get(col, col), justify="left" if col == "bot" else "right")
    for s in result["seats"]:
        table.add_row(str(s["seat"]), s["bot"], f"{s['net']:+d}",
                      f"{s['net'] / result['games']:+.3f}", str(s["wins"]),
                      *(str(s.get(k, "")) for k in extra))
    Console().print(table)
    print(f"{result['decisions']:,} player decisions")


def run_bench(args: argparse.Namespace) -> int:
    """Print the speed figures."""
    from commerce.bench import run_bench as bench
    from commerce.errors import CommerceError
    from commerce.rules import find_ruleset, rulesets
    from commerce.simulate import playout_medians

    if args.seconds <= 0:
        raise CommerceError("--seconds must be positive")
    if args.rules.strip().lower() == "all":
        presets = list(rulesets())
    else:
        presets = [find_ruleset(name) for name in args.rules.split(",")]  # typos fail here
    figures: dict[str, Any] = dict(bench(args.seconds))
    playouts = playout_medians(presets, 4, seconds=args.seconds, repeats=figures["repeats"])
    figures["playout_decisions_per_s"] = next(iter(playouts.values()))
    figures["playouts"] = playouts
    if args.json:
        print(json.dumps(figures))
        return 0
    for key, value in figures.items():
        if key != "playouts":
            print(f"{key:<28} {value:>16,.0f}")
    for rid, value in playouts.items():
        print(f"{'playout ' + rid:<28} {value:>16,.0f}  decisions/s, 4 players")
    return 0
