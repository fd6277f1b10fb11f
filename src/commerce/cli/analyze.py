"""``commerce analyze {dealer-advantage,stand-threshold,variants}``."""

from __future__ import annotations

import argparse
import json
from typing import Any

from commerce.cli import BOTS_HELP, PLAYERS, add_rules_arguments, int_in, resolve_rules, span
from commerce.cli.report import add_output_arguments, check_output_arguments

_ANALYSES = {
    "dealer-advantage": ("each seat's expected payoff per deal relative to the dealer", 1000),
    "stand-threshold": ("the weakest hand worth standing on, for each seat position", 2000),
    "variants": ("length of deals and games and the winning categories of every preset", 300),
}


def configure_analyze(p: argparse.ArgumentParser) -> None:
    """Arguments of ``commerce analyze``."""
    sub = p.add_subparsers(dest="analysis", metavar="ANALYSIS", required=True)
    for name, (help_text, games) in _ANALYSES.items():
        sp = sub.add_parser(name, help=help_text, description=help_text)
        if name != "variants":
            add_rules_arguments(sp)
        sp.add_argument("--players", type=int_in(*PLAYERS), default=4,
                        help=f"seats at the table, {span(PLAYERS)} (default 4)"
                             + (", clamped to each preset's range" if name == "variants" else
                                " within the ruleset's range"))
        sp.add_argument("--bots", default="heuristic",
                        help="comma list of bots cycled over the seats (default heuristic); "
                             "options of one bot with ';', e.g. search:iterations=100;  "
                             + BOTS_HELP)
        if name == "dealer-advantage":
            sp.add_argument("--engine", default="auto", choices=("auto", "reference", "fast"),
                            help="auto (default): the compiled kernel when every bot has a "
                                 "compiled policy (random, heuristic) and the family's kernel "
                                 "plays the rules and reports each deal; reference: the "
                                 "driver; fast: the kernel or an error")
        add_output_arguments(sp, games=games)


def run_analyze(args: argparse.Namespace) -> int:
    """Run one analysis and report it."""
    from commerce import analysis
    from commerce.cli.simulate import _with_progress

    check_output_arguments(args)
    bots = [b.strip().replace(";", ",") for b in args.bots.split(",") if b.strip()]
    kind = args.analysis
    if kind == "variants":
        from commerce.rules import rulesets

        total = args.games * len(list(rulesets()))
        result = _with_progress(total, lambda progress: analysis.variants(
            players=args.players, games=args.games, seed=args.seed, bots=bots, jobs=args.jobs,
            progress=progress))
        header, rows = _variants_rows(result)
        title = (f"Every preset at {args.players} players (clamped to each range), "
                 f"{args.games} games each, bots {','.join(bots)}")
    else:
        rules = resolve_rules(args)
        if kind == "dealer-advantage":
            result = _with_progress(args.games, lambda progress: analysis.dealer_advantage(
                rules, players=args.players, games=args.games, seed=args.seed, bots=bots,
                jobs=args.jobs, progress=progress, engine=args.engine))
        else:
            result = _with_progress(args.games, lambda progress: analysis.stand_threshold(
                rules, players=args.players, games=args.games, seed=args.seed, bots=bots,
                jobs=args.jobs, progress=progress))
        if kind == "dealer-advantage":
            header, rows = _advantage_rows(result)
            title = (f"{result['rules']}, {result['players']} players: payoff per deal by "
                     f"place, {result['deals']} deals ({result['games']} games)")
        else:
            header, rows = _threshold_rows(result)
            title = (f"{result['rules']}, {result['players']} players: standing at one's first "
                     f"turn, {result['games']} games")
    if args.csv:
        from commerce.cli.report import write_csv

        write_csv(args.csv, header, rows)
    if args.plot:
        {"dealer-advantage": _plot_advantage, "stand-threshold": _plot_threshold,
         "variants": _plot_variants}[kind](result, args.plot)
    if args.json:
        print(json.dumps(result))
        return 0
    from commerce.cli.report import print_table

    print_table(title, [_SHORT.get(h, h) for h in header], [_cells(r) for r in rows], left=2)
    if kind == "dealer-advantage":
        from commerce.cli.report import interval

        print(f"engine: {result['engine']} ({result['engine_reason']})")
        a = result["advantage"]
        role = result["seats"][0]["role"].capitalize()
        unit = result.get("unit", "stakes")
        # one game is one sample: no interval (the JSON gives null)
        ci = ("no 95% interval from a single game" if None in a["ci95"]
              else f"95% interval {interval(*a['ci95'])}")
        if unit == "stakes":
            print(f"{role}'s advantage: {a['payoff']:+.3f} {unit} per deal, {ci}")
        else:  # not zero-sum (Cox's points): the column 'vs dealer' is the comparison
            print(f"{role}: {a['payoff']:+.3f} {unit} per hand, {ci}; 'vs dealer' compares "
                  f"each place with the {role.lower()}")
    elif kind == "stand-threshold":
        for p in result["positions"]:
            print(f"{p['role']}: stand on {p['threshold'] or '— (too few samples)'} or better")
    for s in result.get("skipped", []):
        print(f"skipped {s['rules']}: {s['reason']}")
    return 0


_SHORT = {"payoff per deal": "payoff/deal", "ci95 lo": "lo", "ci95 hi": "hi",
          "vs dealer lo": "lo", "vs dealer hi": "hi", "gain lo": "lo", "gain hi": "hi",
          "win if stand": "win", "deals/game": "deals", "decisions/game": "dec/game",
          "decisions/deal": "dec/deal"}


def _cells(row: list[Any]) -> list[str]:
    out = []
    for x in row:
        if x is None:
            out.append("—")
        elif isinstance(x, float):
            out.append(f"{x:.2f}")
        else:
            out.append(str(x).replace("won by ", ""))
    return out


def _advantage_rows(result: dict[str, Any]) -> tuple[list[str], list[list[Any]]]:
    header = ["place", "role", "payoff per deal", "ci95 lo", "ci95 hi", "vs dealer",
              "vs dealer lo", "vs dealer hi"]
    rows = [[r["position"], r["role"], r["payoff"], *r["ci95"], r["vs_dealer"],
             *r["vs_dealer_ci95"]] for r in result["seats"]]
    return header, rows


def _threshold_rows(result: dict[str, Any]) -> tuple[list[str], list[list[Any]]]:
    header = ["role", "class", "samples", "win if stand", "stand", "play on", "gain",
              "gain lo", "gain hi"]
    rows = []
    for p in result["positions"]:
        for c in p["classes"]:
            rows.append([p["role"], c["class"], c["samples"], c["win"], c["stand"],
                         c["play_on"], c["gain"], *c["gain_ci95"]])
    return header, rows


def _variants_rows(result: dict[str, Any]) -> tuple[list[str], list[list[Any]]]:
    cats = sorted({c for r in result["rulesets"] for c in r["wins_by_category"]},
                  key=_CATEGORY_ORDER.index)
    header = ["rules", "players", "deals/game", "decisions/game", "decisions/deal",
              *(f"won by {c}" for c in cats)]
    rows = []
    for r in result["rulesets"]:
        rows.append([r["rules"], r["players"], r["deals_per_game"]["mean"],
                     r["decisions_per_game"]["mean"], r["decisions_per_deal"]["mean"],
                     *(r["wins_by_category"].get(c, 0.0) for c in cats)])
    return header, rows


_CATEGORY_ORDER = ["four", "tricon", "sequence", "flush", "pair", "point", "none",
                   "sold out", "complete", "clear", "not clear"]  # the last four: Cox's


def _plot_advantage(result: dict[str, Any], path: str) -> None:
    from commerce.cli.report import interval_axes, new_figure, save_figure

    seats = result["seats"]
    fig, axes = new_figure(1, 1, width=8, height=1.5 + 0.6 * len(seats))
    interval_axes(axes[0][0], [s["role"] for s in seats], [s["payoff"] for s in seats],
                  [s["ci95"][0] for s in seats], [s["ci95"][1] for s in seats],
                  xlabel="mean payoff per deal (stakes), 95% interval",
                  title=f"{result['rules']}, {result['players']} players: payoff by place "
                        f"({result['deals']} deals, bots {','.join(result['bots'])})")
    save_figure(fig, path)


def _plot_threshold(result: dict[str, Any], path: str) -> None:
    from commerce.cli.report import new_figure, save_figure

    fig, axes = new_figure(2, 1, width=12, height=8)
    top, bottom = axes[0][0], axes[1][0]
    names: dict[int, str] = {}
    for p in result["positions"]:
        for c in p["classes"]:
            names[c["order"]] = c["class"]
    index = {names[o]: i for i, o in enumerate(sorted(names))}
    for p in result["positions"]:
        xs = [index[c["class"]] for c in p["classes"] if c["samples"] >= 8]
        wins = [c["win"] for c in p["classes"] if c["samples"] >= 8]
        gains = [c["gain"] for c in p["classes"] if c["samples"] >= 8]
        top.plot(xs, wins, marker="o", markersize=3, label=p["role"])
        bottom.plot(xs, gains, marker="o", markersize=3, label=p["role"])
        if p["threshold"] is not None:
            bottom.axvline(index[p["threshold"]], linestyle=":", linewidth=1,
                           color=bottom.lines[-1].get_color())
    labels = list(index)
    for ax in (top, bottom):
        ax.set_xticks(range(len(labels)))
        ax.set_xticklabels(labels, rotation=70, fontsize=7)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    top.set_ylabel("chance to win if standing")
    top.set_title(f"{result['rules']}, {result['players']} players: standing at one's first "
                  f"turn (bots {','.join(result['bots'])}, {result['games']} games)")
    bottom.axhline(0, color="grey", linewidth=0.8, linestyle="--")
    bottom.set_ylabel("stand minus play on (stakes)")
    bottom.set_title("Gain from standing; dotted: the weakest hand worth standing on")
    save_figure(fig, path)


def _plot_variants(result: dict[str, Any], path: str) -> None:
    from commerce.cli.report import new_figure, save_figure

    rows = result["rulesets"]
    fig, axes = new_figure(1, 2, width=12, height=1.5 + 0.5 * max(len(rows), 2))
    left, right = axes[0][0], axes[0][1]
    names = [f"{r['rules']} ({r['players']}p)" for r in rows]
    ys = list(range(len(rows)))[::-1]
    means = [r["decisions_per_deal"]["mean"] for r in rows]
    los = [m - r["decisions_per_deal"]["ci95"][0] for m, r in zip(means, rows, strict=True)]
    his = [r["decisions_per_deal"]["ci95"][1] - m for m, r in zip(means, rows, strict=True)]
    left.barh(ys, means, xerr=[los, his], color="tab:blue", alpha=0.7, capsize=3)
    for y, r in zip(ys, rows, strict=True):
        left.annotate(f"{r['deals_per_game']['mean']:.1f} deals/game", (0, y),
                      xytext=(3, 0), textcoords="offset points", va="center", fontsize=8,
                      color="white")
    left.set_yticks(ys)
    left.set_yticklabels(names)
    left.set_xlabel("decisions per deal (95% interval)")
    left.set_title("Length of a deal")
    cats = [c for c in _CATEGORY_ORDER if any(c in r["wins_by_category"] for r in rows)]
    start = [0.0] * len(rows)
    for c in cats:
        share = [r["wins_by_category"].get(c, 0.0) for r in rows]
        right.barh(ys, share, left=start, label=c)
        start = [a + b for a, b in zip(start, share, strict=True)]
    right.set_yticks(ys)
    right.set_yticklabels(names)
    right.set_xlim(0, 1)
    right.set_xlabel("share of deals won")
    right.set_title("Winning hand's category")
    right.legend(fontsize=8, loc="lower right")
    save_figure(fig, path)
