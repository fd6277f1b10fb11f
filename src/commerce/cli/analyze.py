"""``commerce analyze {dealer-advantage,stand-threshold,variants}``."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any

from commerce.cli import BOTS_HELP, PLAYERS, add_rules_arguments, int_in, resolve_rules, span
from commerce.cli.report import (
    add_output_arguments,
    add_ray_argument,
    check_output_arguments,
    interval,
    workers,
)

_ANALYSES = {
    "dealer-advantage": ("each seat's expected payoff per deal relative to the dealer", 1000),
    "stand-threshold": ("the weakest hand worth standing on, for each seat position", 2000),
    "variants": ("length of deals and games and the winning categories of every preset "
                 "(or of --rules)", 300),
}


def configure_analyze(p: argparse.ArgumentParser) -> None:
    """Arguments of ``commerce analyze``."""
    from commerce.cli.simulate import ENGINE_CHOICES, engine_arg

    sub = p.add_subparsers(dest="analysis", metavar="ANALYSIS", required=True)
    for name, (help_text, games) in _ANALYSES.items():
        sp = sub.add_parser(name, help=help_text, description=help_text)
        if name != "variants":
            add_rules_arguments(sp)
        else:
            sp.add_argument("--rules", metavar="IDS",
                            help="the presets compared, a comma list of ids in any case, '_' "
                                 "or '-' alike (default: every preset)")
        sp.add_argument("--players", type=int_in(*PLAYERS), default=4,
                        help=f"seats at the table, {span(PLAYERS)} (default 4)"
                             + (", clamped to each preset's range" if name == "variants" else
                                " within the ruleset's range"))
        sp.add_argument("--bots", default="heuristic",
                        help="comma list of bots cycled over the seats (default heuristic); "
                             "options of one bot with ';', e.g. search:iterations=100;  "
                             + BOTS_HELP)
        kernel_does = {"dealer-advantage": "plays the rules and reports each deal",
                       "stand-threshold": "plays the samples (the trading and widow "
                                          "families' do)"}
        if name in kernel_does:
            sp.add_argument("--engine", default="auto", type=engine_arg, choices=ENGINE_CHOICES,
                            help="auto (default): the compiled kernel when every bot has a "
                                 "compiled policy (random, heuristic) and the family's kernel "
                                 f"{kernel_does[name]}; reference: the driver; compiled: the "
                                 "kernel or an error")
        elif name == "variants":
            sp.add_argument("--engine", default="auto", type=engine_arg, choices=ENGINE_CHOICES,
                            help="auto (default): each preset on its family's compiled kernel "
                                 "when every bot has a compiled policy (random, heuristic) and "
                                 "the kernel reports each deal's winners and decisions (the "
                                 "trading, widow and Cox families' do), else on the driver; "
                                 "reference: the driver; compiled: the kernel or an error; --jobs "
                                 "applies to the driver only")
        add_output_arguments(sp, games=games)
        add_ray_argument(sp)
        sp.add_argument("--wide", action="store_true",
                        help="print each table whole, however wide (by default a table "
                             "wider than the terminal, 80 columns off a terminal, is "
                             "printed in parts that fit)")


def run_analyze(args: argparse.Namespace) -> int:
    """Run one analysis and report it."""
    from commerce.apps import analysis
    from commerce.cli.report import with_progress
    from commerce.cli.wait import warm_kernel

    check_output_arguments(args)
    bots = [b.strip().replace(";", ",") for b in args.bots.split(",") if b.strip()]
    kind = args.analysis
    if kind == "variants":
        from commerce.rules import find_ruleset, rulesets

        presets = ([find_ruleset(name.strip()) for name in args.rules.split(",")]
                   if args.rules else list(rulesets()))
        total = args.games * len(presets)
        for rules in presets:  # each family's compiled code, before the bar starts
            n = min(max(args.players, rules.min_players), rules.max_players)
            if analysis.plays_on_kernel(kind, rules, n, bots, args.engine):
                warm_kernel(rules, n, bots)
        result = with_progress(total, lambda progress: analysis.variants(
            players=args.players, games=args.games, seed=args.seed, bots=bots, jobs=workers(args),
            rules_list=presets, progress=progress, engine=args.engine))
        header, rows = _variants_rows(result)
        which = ", ".join(r.id for r in presets) if args.rules else "Every preset"
        title = (f"{which} at {args.players} players (clamped to each range), "
                 f"{args.games} games each, bots {','.join(bots)}")
    else:
        rules = resolve_rules(args)
        if analysis.plays_on_kernel(kind, rules, args.players, bots, args.engine):
            warm_kernel(rules, args.players, bots, stand=kind == "stand-threshold")
        if kind == "dealer-advantage":
            result = with_progress(args.games, lambda progress: analysis.dealer_advantage(
                rules, players=args.players, games=args.games, seed=args.seed, bots=bots,
                jobs=workers(args), progress=progress, engine=args.engine))
        else:
            from commerce.apps.threshold import stand_threshold

            result = with_progress(args.games, lambda progress: stand_threshold(
                rules, players=args.players, games=args.games, seed=args.seed, bots=bots,
                jobs=workers(args), progress=progress, engine=args.engine))
        if kind == "dealer-advantage":
            header, rows = _advantage_rows(result)
            title = (f"{result['rules']}, {result['players']} players: payoff per deal by "
                     f"place, {result['deals']} deals ({result['games']} games)")
        else:
            header, rows = _threshold_rows(result)
            title = (f"{result['rules']}, {result['players']} players: standing at one's first "
                     f"turn, {result['games']} games, by bands of hands")
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

    if kind == "stand-threshold":  # the full grid is in --csv; the screen gets the bands
        header, rows = _band_rows(result)
    print_table(title, [_SHORT.get(h, h) for h in header], [_cells(r) for r in rows], left=2,
                wide=args.wide)
    if kind == "dealer-advantage":
        from commerce.cli.report import interval

        print(f"engine: {result['engine']} ({result['engine_reason']})")
        a = result["advantage"]
        role = result["seats"][0]["role"].capitalize()
        unit = result.get("unit", "stakes")
        # one game is one sample: no interval (the JSON gives null)
        ci = ("no 95% interval from a single game" if None in a["ci95"]
              else f"95% interval {interval(*a['ci95'])}")
        per = "hand" if unit == "points" else "deal"
        if unit in ("stakes", "tokens"):
            print(f"{role}'s advantage: {a['payoff']:+.3f} {unit} per {per}, {ci}")
        else:  # not zero-sum (Cox's points, Pool's counters): 'vs dealer' compares
            print(f"{role}: {a['payoff']:+.3f} {unit} per {per}, {ci}; 'vs dealer' compares "
                  f"each place with the {role.lower()}")
    elif kind == "variants":
        import textwrap

        for line in engine_lines(result):
            print(textwrap.fill(line, 80, subsequent_indent="  ", break_on_hyphens=False))
    elif kind == "stand-threshold":
        import textwrap

        classes = sum(len(p["classes"]) for p in result["positions"])
        for line in [*threshold_lines(result), (
                f"Gain: stand minus play on, in {result['unit']}; '—': fewer than "
                f"{result['min_samples']} samples. The full grid ({classes} rows, hand by "
                f"hand): --csv FILE."),
                f"engine: {result['engine']} ({result['engine_reason']})"
                + (f"; kernel first call {result['first_call_s']:.2f} s (compile or load)"
                   if result.get("first_call_s") is not None else "")]:
            print(textwrap.fill(line, 80, subsequent_indent="  ", break_on_hyphens=False))
    for s in result.get("skipped", []):
        print(f"skipped {s['rules']}: {s['reason']}")
    return 0


_SHORT = {"payoff per deal": "payoff/deal", "ci95 lo": "lo", "ci95 hi": "hi",
          "vs dealer lo": "lo", "vs dealer hi": "hi", "gain lo": "lo", "gain hi": "hi",
          "win if stand": "win", "deals/game": "deals", "decisions/game": "dec/game",
          "decisions/deal": "dec/deal"}


def _cells(row: Sequence[object]) -> list[str]:
    out = []
    for x in row:
        if x is None:
            out.append("—")
        elif isinstance(x, float):
            out.append(f"{x:.2f}")
        else:
            out.append(str(x).replace("won by ", ""))
    return out


def engine_lines(result: dict[str, Any]) -> list[str]:
    """The engine that played each preset of a variants result and why, a line for each
    engine and reason.

    >>> for line in engine_lines({"rulesets": [
    ...     {"rules": "peel", "engine": "compiled", "engine_reason": "asked for"},
    ...     {"rules": "pool", "engine": "reference", "engine_reason": "no kernel"},
    ...     {"rules": "hoyle", "engine": "compiled", "engine_reason": "asked for"}]}):
    ...     print(line)
    engine: compiled (asked for): peel, hoyle
    engine: reference (no kernel): pool
    """
    groups: dict[tuple[str, str], list[str]] = {}
    for r in result["rulesets"]:
        groups.setdefault((r["engine"], r["engine_reason"]), []).append(r["rules"])
    return [f"engine: {engine} ({why}): {', '.join(ids)}"
            for (engine, why), ids in groups.items()]


def threshold_lines(result: dict[str, Any]) -> list[str]:
    """The weakest hand worth standing on for each place, in words, stated only where the
    95% interval supports it (:func:`commerce.apps.threshold.threshold_verdict`); where it does
    not, where standing starts to pay on average and that it is not settled; "too few
    samples" only where no class of hands had enough samples to tell.

    >>> for line in threshold_lines({"min_samples": 8, "positions": [
    ...     {"role": "eldest", "threshold": None, "classes": [{"samples": 40, "gain": -1.0}]},
    ...     {"role": "dealer", "threshold": None, "classes": [{"samples": 3, "gain": 2.0}]},
    ...     {"role": "seat 2", "threshold": "pair of 7s", "classes": [], "verdict": {
    ...         "from": "pair of 7s", "through": "pair of Ts", "gain": 0.4,
    ...         "gain_ci95": [0.1, 0.7]}},
    ...     {"role": "seat 3", "threshold": None, "classes": [{"samples": 40, "gain": 1.0}],
    ...      "verdict": {"from": "pair of Ks", "through": "pair of As", "gain": 0.45,
    ...                  "gain_ci95": [-0.2, 1.1]}}]}):
    ...     print(line)  # doctest: +NORMALIZE_WHITESPACE
    eldest: standing at the first turn did not pay with the strongest hands seen (40 samples)
    dealer: too few samples (3 in all, 8 needed in a class of hands)
    seat 2: stand on pair of 7s or better (pair of 7s to Ts: gain +0.40, 95% interval
      [+0.10, +0.70])
    seat 3: no clear threshold: standing gains on average from pair of Ks up, but the 95%
      interval of pair of Ks to As, [-0.20, +1.10], includes 0
    """
    out = []
    least = result["min_samples"]
    for p in result["positions"]:
        seen = sum(c["samples"] for c in p["classes"])
        verdict = p.get("verdict") or {}
        if verdict.get("from") is not None:
            first, last = verdict["from"], verdict["through"]
            pool = first if first == last else f"{first} to {_tail(first, last)}"
            lo, hi = verdict["gain_ci95"]
            ci = interval(lo, hi, "+.2f")
        if p["threshold"] is not None:
            out.append(f"{p['role']}: stand on {p['threshold']} or better" + (
                f" ({pool}: gain {verdict['gain']:+.2f}, 95% interval {ci})"
                if verdict.get("from") is not None else ""))
        elif verdict.get("from") is not None:
            out.append(f"{p['role']}: no clear threshold: standing gains on average from "
                       f"{verdict['from']} up, but the 95% interval of {pool}, {ci}, "
                       f"includes 0")
        elif any(c["samples"] >= least for c in p["classes"]):
            out.append(f"{p['role']}: standing at the first turn did not pay with the "
                       f"strongest hands seen ({seen} samples)")
        else:
            out.append(f"{p['role']}: too few samples ({seen} in all, {least} needed in a "
                       f"class of hands)")
    return out


def _tail(first: str, last: str) -> str:
    """*last* without the words it shares with *first*: ``Ts`` of ``pair of 7s`` to
    ``pair of Ts``, ``27-29`` of ``point 12-14`` to ``point 27-29``."""
    a, b = first.split(), last.split()
    n = 0
    while n < min(len(a), len(b)) - 1 and a[n] == b[n]:
        n += 1
    return " ".join(b[n:])


def bands(classes: list[dict[str, Any]]) -> list[tuple[str, list[dict[str, Any]]]]:
    """Classes of hands (weakest first) grouped in bands: each category of hands (the word
    before its numbers: ``point``, ``pair``, ``flush``) in its weaker and its stronger half.

    >>> [name for name, _ in bands([{"class": c} for c in (
    ...     "point 12-14", "point 15-17", "point 18-20", "pair of 3s", "sequence")])]
    ['point 12-14 to 15-17', 'point 18-20', 'pair of 3s', 'sequence']
    """
    import re

    by_category: dict[str, list[dict[str, Any]]] = {}
    for c in classes:
        by_category.setdefault(re.split(r" (?:of |\d)", c["class"], maxsplit=1)[0], []).append(c)
    out = []
    for category, members in by_category.items():
        half = (len(members) + 1) // 2
        for part in (members[:half], members[half:]):
            if not part:
                continue
            first, last = part[0]["class"], part[-1]["class"]
            tail = last[len(category):].strip().removeprefix("of ").strip()
            out.append((first if first == last else f"{first} to {tail}", part))
    return out


def _band_rows(result: dict[str, Any]) -> tuple[list[str], list[list[object]]]:
    """The stand-threshold table by bands: samples, chance to win, mean gain and its 95%
    interval pooled over the band's classes ('—' under *min_samples* samples)."""
    header = ["role", "hands", "samples", "win if stand", "gain", "gain lo", "gain hi"]
    rows: list[list[object]] = []
    for p in result["positions"]:
        for name, part in bands(p["classes"]):
            n = sum(c["samples"] for c in part)
            if n < result["min_samples"]:
                rows.append([p["role"], name, n, None, None, None, None])
                continue
            win = sum(c["win"] * c["samples"] for c in part) / n
            gain = sum(c["gain"] * c["samples"] for c in part) / n
            # the classes are disjoint samples: the pooled mean's variance adds up
            var = sum((c["samples"] * (c["gain_ci95"][1] - c["gain_ci95"][0]) / 3.92) ** 2
                      for c in part if None not in c["gain_ci95"]) / n ** 2
            half = 1.96 * var ** 0.5
            rows.append([p["role"], name, n, win, gain, gain - half, gain + half])
    return header, rows


def _advantage_rows(result: dict[str, Any]) -> tuple[list[str], list[list[object]]]:
    header = ["place", "role", "payoff per deal", "ci95 lo", "ci95 hi", "vs dealer",
              "vs dealer lo", "vs dealer hi"]
    rows = [[r["position"], r["role"], r["payoff"], *r["ci95"], r["vs_dealer"],
             *r["vs_dealer_ci95"]] for r in result["seats"]]
    return header, rows


def _threshold_rows(result: dict[str, Any]) -> tuple[list[str], list[list[object]]]:
    header = ["role", "class", "samples", "win if stand", "stand", "play on", "gain",
              "gain lo", "gain hi"]
    rows = []
    for p in result["positions"]:
        for c in p["classes"]:
            rows.append([p["role"], c["class"], c["samples"], c["win"], c["stand"],
                         c["play_on"], c["gain"], *c["gain_ci95"]])
    return header, rows


def _variants_rows(result: dict[str, Any]) -> tuple[list[str], list[list[object]]]:
    cats = sorted({c for r in result["rulesets"] for c in r["wins_by_category"]},
                  key=_CATEGORY_ORDER.index)
    header = ["rules", "players", "engine", "deals/game", "decisions/game", "decisions/deal",
              *(f"won by {c}" for c in cats)]
    rows = []
    for r in result["rulesets"]:
        rows.append([r["rules"], r["players"], r["engine"], r["deals_per_game"]["mean"],
                     r["decisions_per_game"]["mean"], r["decisions_per_deal"]["mean"],
                     *(r["wins_by_category"].get(c) for c in cats)])  # None: "—"
    return header, rows


_CATEGORY_ORDER = ["four", "tricon", "sequence", "flush", "pair", "point", "none",
                   "sold out", "complete", "clear", "not clear"]  # the last four: Cox's


def _plot_advantage(result: dict[str, Any], path: str) -> None:
    from commerce.cli.report import save_figure

    save_figure(advantage_figure(result), path)


def _plot_threshold(result: dict[str, Any], path: str) -> None:
    from commerce.cli.report import save_figure

    save_figure(threshold_figure(result), path)


def _plot_variants(result: dict[str, Any], path: str) -> None:
    from commerce.cli.report import save_figure

    save_figure(variants_figure(result), path)


def _title(text: str) -> str:
    import textwrap

    return "\n".join(textwrap.wrap(text, 70))


def advantage_figure(result: dict[str, Any]) -> Any:
    """Each place's mean payoff per deal in the ruleset's unit, with 95% intervals."""
    from commerce.cli.report import interval_axes, new_figure

    seats = result["seats"]
    unit = result.get("unit", "stakes")
    fig, axes = new_figure(1, 1, width=8, height=2 + 0.6 * len(seats))
    interval_axes(axes[0][0], [s["role"] for s in seats], [s["payoff"] for s in seats],
                  [s["ci95"][0] for s in seats], [s["ci95"][1] for s in seats],
                  xlabel=f"mean payoff per {'hand' if unit == 'points' else 'deal'} "
                         f"({unit}), with its 95% interval",
                  title=_title(f"{result['rules']}, {result['players']} players: payoff by "
                               f"place ({result['deals']} deals, bots "
                               f"{','.join(result['bots'])})"))
    return fig


def threshold_figure(result: dict[str, Any]) -> Any:
    """The chance to win by standing and the gain from standing, class by class of hands,
    one line per place with its 95% band; the legend beside the axes."""
    from commerce.cli.report import new_figure

    fig, axes = new_figure(2, 1, width=13, height=8.5)
    top, bottom = axes[0][0], axes[1][0]
    unit = result.get("unit", "stakes")
    least = result.get("min_samples", 8)
    names: dict[int, str] = {}
    for p in result["positions"]:
        for c in p["classes"]:
            names[c["order"]] = c["class"]
    index = {names[o]: i for i, o in enumerate(sorted(names))}
    for p in result["positions"]:
        shown = [c for c in p["classes"] if c["samples"] >= least]
        xs = [index[c["class"]] for c in shown]
        for ax, key, band in ((top, "win", "win_ci95"), (bottom, "gain", "gain_ci95")):
            line, = ax.plot(xs, [c[key] for c in shown], marker="o", markersize=3,
                            label=p["role"])
            ax.fill_between(xs, [c[band][0] for c in shown], [c[band][1] for c in shown],
                            color=line.get_color(), alpha=0.12, linewidth=0)
        if p["threshold"] is not None:  # only where the interval supports it
            bottom.axvline(index[p["threshold"]], linestyle=":", linewidth=1,
                           color=bottom.lines[-1].get_color())
    labels = list(index)
    for ax in (top, bottom):
        ax.set_xticks(range(len(labels)))
        ax.set_xticklabels(labels, rotation=60, ha="right", fontsize=8)
        ax.grid(alpha=0.3)
        ax.legend(title="place", fontsize=9, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    top.set_ylabel("chance to win if standing")
    top.set_title(_title(f"{result['rules']}, {result['players']} players: standing at one's "
                         f"first turn (bots {','.join(result['bots'])}, {result['games']} "
                         f"games); shaded: 95% intervals"))
    bottom.axhline(0, color="grey", linewidth=0.8, linestyle="--")
    bottom.set_ylabel(f"stand minus play on ({unit})")
    bottom.set_title(f"Gain from standing; dotted: the weakest hand worth standing on "
                     f"(classes with {least} samples or more)")
    return fig


def variants_figure(result: dict[str, Any]) -> Any:
    """Every preset's deal length (95% intervals) and the categories that win its deals."""
    from commerce.cli.report import new_figure

    rows = result["rulesets"]
    fig, axes = new_figure(1, 2, width=13, height=2 + 0.5 * max(len(rows), 2))
    left, right = axes[0][0], axes[0][1]
    names = [f"{r['rules']} ({r['players']}p)" for r in rows]
    ys = list(range(len(rows)))[::-1]
    means = [r["decisions_per_deal"]["mean"] for r in rows]
    his = [r["decisions_per_deal"]["ci95"][1] for r in rows]
    left.errorbar(means, ys, xerr=[[m - r["decisions_per_deal"]["ci95"][0]
                                    for m, r in zip(means, rows, strict=True)],
                                   [h - m for h, m in zip(his, means, strict=True)]],
                  fmt="o", color="tab:blue", capsize=3)
    for y, hi, r in zip(ys, his, rows, strict=True):
        left.annotate(f"{r['deals_per_game']['mean']:.1f} deals/game", (hi, y),
                      xytext=(6, 0), textcoords="offset points", va="center", fontsize=8)
    left.set_xlim(0, max(his) * 1.45)
    left.set_yticks(ys)
    left.set_yticklabels(names)
    left.margins(y=0.1)
    left.set_xlabel("decisions per deal, with its 95% interval")
    left.set_title("Length of a deal")
    cats = [c for c in _CATEGORY_ORDER if any(c in r["wins_by_category"] for r in rows)]
    start = [0.0] * len(rows)
    for c in cats:
        share = [r["wins_by_category"].get(c, 0.0) for r in rows]
        right.barh(ys, share, left=start, label=c)
        start = [a + b for a, b in zip(start, share, strict=True)]
    deals = min(r["deals_per_game"]["mean"] * r["games"] for r in rows)
    margin = 1.96 * (0.25 / max(deals, 1.0)) ** 0.5
    right.set_yticks(ys)
    right.set_yticklabels(names)
    right.set_xlim(0, 1)
    right.set_xlabel(f"share of deals won (95% margin ±{margin:.2f} or less)")
    right.set_title("Winning hand's category")
    right.legend(title="category", fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.suptitle(_title(f"Every preset, bots {','.join(result['bots'])}, {result['games']} "
                        f"games each"))
    return fig
