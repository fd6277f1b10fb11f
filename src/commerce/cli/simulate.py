"""``commerce simulate`` and ``commerce bench``."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

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
from commerce.cli.report import with_progress

if TYPE_CHECKING:
    from commerce.rules import Ruleset

BENCH_GAMES: tuple[int, int] = (1, 2_000_000)
"""``commerce bench --fast --games``: a batch's arrays take about 60 bytes a game (120 MB at
most)."""


ENGINE_CHOICES = ("auto", "reference", "compiled")
"""The values of ``--engine`` (``fast``, the former name of ``compiled``, is still read for one
version: :func:`engine_arg`)."""


def engine_arg(text: str) -> str:
    """``--engine``'s value: ``fast`` (deprecated: a note on stderr and a
    ``DeprecationWarning``) reads as ``compiled``.

    >>> engine_arg("reference")
    'reference'
    """
    if text.strip().lower() == "fast":
        import warnings

        print("commerce: note: --engine fast is deprecated; it is now --engine compiled",
              file=sys.stderr)
        warnings.warn("--engine fast is now --engine compiled", DeprecationWarning,
                      stacklevel=2)
        return "compiled"
    return text


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
    p.add_argument("--engine", default="auto", type=engine_arg, choices=ENGINE_CHOICES,
                   help="auto (default): the compiled kernel when every bot has a compiled "
                        "policy (random, heuristic) and the kernel plays the rules; reference: "
                        "the reference engine; compiled: the kernel or an error")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def configure_bench(p: argparse.ArgumentParser) -> None:
    """Arguments of ``commerce bench``."""
    p.add_argument("--seconds", type=float_in(*SECONDS), default=1.0,
                   help=f"time spent on each figure's repeat, {span(SECONDS)} (default 1.0); "
                        "with --fast, also the least time a kernel figure's batches take")
    p.add_argument("--rules", metavar="IDS",
                   help="presets timed in random playouts at 4 players, one row each (the "
                        "median of 5 runs of --seconds): a comma list of ids in any case, '_' "
                        "or '-' alike, or 'all' (default peel; "
                        "with --fast, all)")
    p.add_argument("--fast", action="store_true",
                   help="instead: random and heuristic playouts on the compiled kernel (2 "
                        "threads) beside the reference engine's path, for every preset with "
                        "a kernel (or --rules)")
    p.add_argument("--games", type=int_in(*BENCH_GAMES), default=200_000,
                   help=f"games per timed kernel run with --fast, {span(BENCH_GAMES)} "
                        "(default 200,000)")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def run_simulate(args: argparse.Namespace) -> int:
    """Play bot games and print per-seat results."""
    from commerce.apps.runner import choose_engine
    from commerce.apps.simulate import simulate
    from commerce.bots import make_bot
    from commerce.errors import CommerceError

    rules = resolve_rules(args)
    if args.games < 1:
        raise CommerceError("--games must be at least 1")
    if args.players not in rules.player_range():
        raise CommerceError(f"{rules.name} is for {rules.players_phrase()}, not {args.players}")
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    if not bots:
        raise CommerceError("give at least one bot, e.g. --bots random,heuristic")
    for spec in bots:
        make_bot(spec)  # validate before playing
    engine, _ = choose_engine(rules, args.players, bots, args.engine)
    if engine == "compiled":
        from commerce.cli.wait import warm_kernel

        warm = warm_kernel(rules, args.players, bots)  # says so on a terminal if it compiles
        result = simulate(rules, players=args.players, games=args.games, seed=args.seed,
                          bots=bots, engine=args.engine)
        result["first_call_s"] = round(result["first_call_s"] + warm, 3)
    else:
        result = with_progress(
            args.games,
            lambda progress: simulate(rules, players=args.players, games=args.games,
                                      seed=args.seed, bots=bots, progress=progress,
                                      engine=args.engine),
        )
    if args.json:  # the timings stay out: the same arguments give byte-identical output
        result.pop("first_call_s", None)
        result.pop("seconds", None)
        print(json.dumps(result))
        return 0
    _print_table(result)
    return 0


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
    import textwrap

    line = f"engine: {result['engine']} ({result['engine_reason']})"
    if "first_call_s" in result:
        line += (f"; kernel first call {result['first_call_s']:.2f} s (compile or load), "
                 f"games {result['seconds']:.2f} s")
    print(textwrap.fill(line, 80, subsequent_indent="  ", break_on_hyphens=False))


def run_bench(args: argparse.Namespace) -> int:
    """Print the speed figures."""
    from commerce.apps.simulate import playout_medians
    from commerce.bench import run_bench as bench
    from commerce.errors import CommerceError
    from commerce.rules import find_ruleset, rulesets

    if args.seconds <= 0:
        raise CommerceError("--seconds must be positive")
    if args.fast:
        return _run_bench_fast(args)
    names = args.rules or "peel"
    if names.strip().lower() == "all":
        presets = list(rulesets())
    else:
        presets = [find_ruleset(name) for name in names.split(",")]  # typos fail here
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


def fast_bench_presets(names: str) -> list[Ruleset]:
    """The presets ``bench --fast --rules NAMES`` times: a comma list, or ``all``: every
    preset with a compiled kernel that seats the four players the figures are for (the
    two-player research variants left out).

    >>> [r.id for r in fast_bench_presets("all")][:3]
    ['peel', 'hoyle', 'trade-and-barter']
    """
    from commerce.compiled import kernel_reason
    from commerce.rules import find_ruleset, rulesets

    if names.strip().lower() == "all":
        return [r for r in rulesets() if kernel_reason(r, ["random"]) is None
                and 4 in r.player_range()]
    return [find_ruleset(name) for name in names.split(",")]


def _run_bench_fast(args: argparse.Namespace) -> int:
    """``bench --fast``: kernel playouts (random and heuristic) beside the reference path."""
    from commerce.cli.wait import notice

    presets = fast_bench_presets(args.rules or "all")
    rows: list[dict[str, Any]] = []
    for n, rules in enumerate(presets, 1):
        with notice(f"timing {rules.id}, {n} of {len(presets)} (its first run may compile the "
                    "simulator, once)"):
            rows.append(_bench_fast_row(rules, args))
    if args.json:
        print(json.dumps({"fast": rows}))
        return 0
    print(f"{'rules':<18}{'':<6}{'reference/s':>13}{'random/s':>14}{'x':>7}"
          f"{'heuristic/s':>14}{'x':>7}{'cores':>7}{'first call s':>14}")
    for row in rows:
        for label, key, ratio in (("wall", "decisions_per_s", "ratio"),
                                  ("cpu", "decisions_per_cpu_s", "cpu_ratio")):
            print(f"{row['rules'] if label == 'wall' else '':<18}{label:<6}"
                  f"{row['reference_' + key]:>13,}{row['random_' + key]:>14,}"
                  f"{row['random_' + ratio]:>7}{row['heuristic_' + key]:>14,}"
                  f"{row['heuristic_' + ratio]:>7}"
                  + (f"{row['random_cores_used']:>7}{row['random_first_call_s']:>14}"
                     if label == "wall" else ""))
    import textwrap

    print(textwrap.fill(
        "player decisions per second, 4 players, whole games; the kernel on 2 threads, the "
        "reference path (engine.apply, one core) in the same run; wall: per second of the "
        "clock; cpu: per CPU second (one core's work, whatever else the machine runs); "
        "cores: CPU seconds per second the kernel had", 80, break_on_hyphens=False))
    return 0


def _bench_fast_row(rules: Ruleset, args: argparse.Namespace) -> dict[str, Any]:
    """``bench --fast``'s figures for one preset."""
    import statistics
    import time

    from commerce.apps.simulate import kernel_decisions_per_s, playout_decisions_per_s

    walls, cpus = [], []
    for seed in range(3):  # the reference path, one core: wall-clock and CPU seconds
        walls.append(playout_decisions_per_s(rules, 4, seconds=args.seconds, seed=seed,
                                             warm_up=seed == 0))
        cpus.append(playout_decisions_per_s(rules, 4, seconds=args.seconds, seed=seed,
                                            warm_up=False, clock=time.process_time))
    reference, reference_cpu = round(statistics.median(walls)), round(statistics.median(cpus))
    row: dict[str, Any] = {"rules": rules.id, "players": 4, "threads": 2,
                           "reference_decisions_per_s": reference,
                           "reference_decisions_per_cpu_s": reference_cpu}
    for bot in ("random", "heuristic"):
        fig = kernel_decisions_per_s(rules, 4, bot=bot, games=args.games,
                                     seconds=args.seconds)
        rate, cpu_rate = round(fig["decisions_per_s"]), round(fig["decisions_per_cpu_s"])
        row[f"{bot}_decisions_per_s"] = rate
        row[f"{bot}_ratio"] = round(rate / reference, 1)
        row[f"{bot}_decisions_per_cpu_s"] = cpu_rate
        row[f"{bot}_cpu_ratio"] = round(cpu_rate / reference_cpu, 1)
        row[f"{bot}_cores_used"] = round(fig["cpu_per_wall"], 2)
        row[f"{bot}_first_call_s"] = round(fig["first_call_s"], 3)
    return row
