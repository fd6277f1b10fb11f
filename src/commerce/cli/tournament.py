"""``commerce tournament``: bots against each other with seat rotation over replayed deals."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from commerce.cli import BOTS_HELP, PLAYERS, add_rules_arguments, int_in, resolve_rules, span
from commerce.cli.report import (
    add_output_arguments,
    add_ray_argument,
    check_output_arguments,
    workers,
)
from commerce.errors import CommerceError

if TYPE_CHECKING:
    from commerce.rules import Ruleset


def configure_tournament(p: argparse.ArgumentParser) -> None:
    """Arguments of ``commerce tournament``."""
    add_rules_arguments(p)
    p.add_argument("--players", type=int_in(*PLAYERS), default=4,
                   help=f"seats at the table, {span(PLAYERS)} within the ruleset's range "
                        "(default 4)")
    p.add_argument("--bots", default="random,heuristic,search",
                   help="comma list of bot specs, each once (default random,heuristic,search);"
                        " options of one bot with ';', e.g. search:iterations=100;  "
                        + BOTS_HELP)
    from commerce.cli.simulate import ENGINE_CHOICES, engine_arg

    p.add_argument("--engine", default="auto", type=engine_arg, choices=ENGINE_CHOICES,
                   help="auto (default): the compiled kernel when every bot has a compiled "
                        "policy (random, heuristic) and the kernel plays the rules; reference: "
                        "the driver; compiled: the kernel or an error")
    add_output_arguments(p, games=60)
    add_ray_argument(p)
    from commerce.cli.agents import add_agent_argument

    add_agent_argument(p)


def run_tournament(args: argparse.Namespace) -> int:
    """Play the tournament and report it."""
    from commerce.apps.tournament import block_size, bot_order, tournament
    from commerce.cli.report import with_progress

    check_output_arguments(args)
    rules = resolve_rules(args)
    bots = [b.strip().replace(";", ",") for b in args.bots.split(",") if b.strip()]
    if args.agent:
        from commerce.cli.agents import register_agents

        if args.jobs != 1:
            raise CommerceError("--agent: an outside agent plays in this process; leave "
                                "--jobs at 1")
        bots += [name for name in register_agents(args) if name not in bots]
    size = block_size(len(bot_order(bots)), args.players)
    blocks = -(-max(args.games, 1) // max(size, 1))
    spread = workers(args)
    if _plays_on_kernel(rules, args.players, bots, args.engine):
        from commerce.cli.wait import warm_kernel

        warm_kernel(rules, args.players, bots)  # before the bar starts
    result = with_progress(
        blocks * max(size, 1),
        lambda progress: tournament(rules, players=args.players, bots=bots, games=args.games,
                                    seed=args.seed, jobs=spread, progress=progress,
                                    engine=args.engine),
    )
    if args.csv:
        from commerce.cli.report import write_csv

        write_csv(args.csv, *_rows(result, raw=True))
    if args.plot:
        from commerce.family import payoff_unit

        _plot(result, args.plot, payoff_unit(rules))
    if args.json:
        print(json.dumps({**{k: result[k] for k in ("ratings", "payoff", "ci95", "games",
                                                    "pairs", "rules", "players", "seed",
                                                    "bots", "blocks", "engine",
                                                    "engine_reason")},
                          "games_asked": args.games, "block_size": size}))
        return 0
    _print(result, args.games, size)
    return 0


def _plays_on_kernel(rules: Ruleset, players: int, bots: list[str], engine: str) -> bool:
    """Whether :func:`commerce.apps.tournament.tournament` will play on the compiled kernel (False
    where it will refuse the arguments, and say why)."""
    from commerce.apps.runner import choose_engine

    if len(bots) < 2 or len(set(bots)) != len(bots) or players not in rules.player_range():
        return False
    try:
        return choose_engine(rules, players, bots, engine)[0] == "compiled"
    except CommerceError:
        return False


def _rows(result: dict[str, Any], *, raw: bool) -> tuple[list[str], list[list[object]]]:
    from commerce.cli.report import fmt, interval

    if raw:
        header = ["bot", "payoff_per_game", "ci95_lo", "ci95_hi", "rating"]
        rows = [[b, result["payoff"][b], *result["ci95"][b], result["ratings"][b]]
                for b in result["bots"]]
        return header, rows
    header = ["bot", "payoff per game", "95% interval", "rating"]
    rows = [[b, fmt(result["payoff"][b]), interval(*result["ci95"][b]),
             fmt(result["ratings"][b], ".0f")] for b in result["bots"]]
    return header, rows


def block_note(asked: int, played: int, size: int) -> str:
    """What a tournament's block is, and why it played more games than asked where it did.

    >>> block_note(120, 120, 6).split(":")[0]
    'A block is 6 games on the same deals'
    >>> block_note(100, 102, 6).split(": ")[0]
    '--games 100 was rounded up to 102 (17 whole blocks)'
    """
    what = (f"A block is {size} games on the same deals: every rotation of the bots in sorted "
            "order, and of that order reversed.")
    if played == asked:
        return what
    return f"--games {asked} was rounded up to {played} ({played // size} whole blocks): {what}"


def _print(result: dict[str, Any], asked: int, size: int) -> None:
    from commerce.cli.report import fmt, interval, print_table

    title = (f"{result['rules']}, {result['players']} players: {result['games']} games "
             f"({result['blocks']} blocks of replayed deals), seed {result['seed']}")
    import textwrap

    print(textwrap.fill(block_note(asked, result["games"], size), 80,
                        break_on_hyphens=False))
    print_table(title, *_rows(result, raw=False))
    rows = []
    for p in result["pairs"]:
        lo, hi = p["ci95"]
        verdict = "—"
        if lo is not None and lo > 0:
            verdict = f"{p['a']} better"
        elif hi is not None and hi < 0:
            verdict = f"{p['b']} better"
        rows.append([f"{p['a']} − {p['b']}", fmt(p["diff"]), interval(lo, hi), verdict])
    print_table("Differences per game (paired by block)",
                ["pair", "difference", "95% interval", "verdict"], rows)
    import textwrap

    for line in ("Ratings: Bradley-Terry on the Elo scale (mean 1500) from every two seats of "
                 "different bots in a game.",
                 f"engine: {result['engine']} ({result['engine_reason']})"):
        print(textwrap.fill(line, 80, subsequent_indent="  ", break_on_hyphens=False))


def _plot(result: dict[str, Any], path: str, unit: str = "stakes") -> None:
    """Each bot's payoff per game (in *unit*, the ruleset's: stakes, tokens, points ...) and
    each pair's difference, with their 95% intervals, to *path*."""
    from commerce.cli.report import interval_axes, new_figure, save_figure

    bots = result["bots"]
    fig, axes = new_figure(1, 2, width=11, height=max(3.0, 1.0 + 0.6 * len(bots)))
    labels = [f"{b}  ({result['ratings'][b]:.0f})" for b in bots]
    interval_axes(axes[0][0], labels, [result["payoff"][b] for b in bots],
                  [result["ci95"][b][0] for b in bots], [result["ci95"][b][1] for b in bots],
                  xlabel=f"mean payoff per game ({unit}), 95% interval",
                  title="Payoff per bot (rating in brackets)")
    pairs = result["pairs"]
    interval_axes(axes[0][1], [f"{p['a']} − {p['b']}" for p in pairs],
                  [p["diff"] for p in pairs], [p["ci95"][0] for p in pairs],
                  [p["ci95"][1] for p in pairs],
                  xlabel=f"difference per game ({unit}), 95% interval",
                  title="Head to head")
    fig.suptitle(f"{result['rules']}, {result['players']} players, {result['games']} games")
    save_figure(fig, path)
