"""``commerce hand``, ``compare``, ``odds`` and ``score``: hands without playing."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from commerce.cli import add_rules_arguments, resolve_rules
from commerce.family import family_spec

if TYPE_CHECKING:
    from commerce.rules import Ruleset


def configure_hand(p: argparse.ArgumentParser) -> None:
    """Arguments of ``commerce hand``."""
    p.add_argument("cards", nargs="*", metavar="CARD",
                   help="three cards such as AS 10h T♦, or '-' to read one hand per line")
    add_rules_arguments(p)
    p.add_argument("--json", action="store_true", help="print JSON")


def configure_compare(p: argparse.ArgumentParser) -> None:
    """Arguments of ``commerce compare``."""
    p.add_argument("a", metavar="HAND_A", help='first hand, e.g. "AS KS QS"')
    p.add_argument("b", metavar="HAND_B", help='second hand, e.g. "2H 2D 2C"')
    add_rules_arguments(p)
    p.add_argument("--json", action="store_true", help="print JSON")


def configure_odds(p: argparse.ArgumentParser) -> None:
    """Arguments of ``commerce odds``."""
    add_rules_arguments(p)
    p.add_argument("--json", action="store_true", help="print JSON")


def configure_score(p: argparse.ArgumentParser) -> None:
    """Arguments of ``commerce score``."""
    p.add_argument("cards", nargs="+", metavar="CARD", help="a Cox holding, e.g. A1 A1 A1 BK")
    add_rules_arguments(p, default="cox")
    p.add_argument("--base", type=int, default=1, choices=(1, 2, 3, 4),
                   help="the player's Supply Base number (default 1)")
    p.add_argument("--json", action="store_true", help="print JSON")


def _hand_dict(cards: tuple[int, ...], rules: Ruleset) -> dict[str, Any]:
    from commerce.cards import format_card
    from commerce.hands import evaluator_for

    ev = evaluator_for(rules)
    value = ev.value(cards)
    return {
        "cards": [format_card(c) for c in cards],
        "category": value.category.value,
        "rank": value.rank,
        "points": value.points,
        "levels": ev.level_count,
    }


def _describe(d: dict[str, Any]) -> str:
    return (f"{' '.join(d['cards'])}: {d['category']} ({d['points']} points; "
            f"strength {d['rank']} of 0-{d['levels'] - 1})")


def _check_cox(rules: Ruleset, command: str) -> None:
    from commerce.errors import CommerceError
    from commerce.rules import RankingOptions

    if rules.family == "cox":
        raise CommerceError(
            f"'{command}' is for three-card hands; for Cox's game use 'commerce score'"
        )
    if not isinstance(rules.options, RankingOptions):
        raise CommerceError(f"'{command}' is for three-card hands; {rules.id} does not rank them")


def run_hand(args: argparse.Namespace) -> int:
    """Evaluate one hand, or one per line from standard input."""
    from commerce.cards import parse_cards
    from commerce.errors import CommerceError

    rules = resolve_rules(args)
    _check_cox(rules, "hand")
    if args.cards == ["-"]:
        failed = False
        for n, line in enumerate(sys.stdin, 1):
            if not line.strip():
                continue
            try:
                d = _hand_dict(parse_cards(line), rules)
            except CommerceError as exc:
                failed = True
                if args.json:
                    print(json.dumps({"error": str(exc), "line": n}), flush=True)
                else:
                    print(f"commerce hand: error: line {n}: {exc}", file=sys.stderr)
                continue
            print(json.dumps(d) if args.json else _describe(d))
        return 2 if failed else 0
    if not args.cards:
        raise CommerceError("give three cards, e.g. 'commerce hand AS 2S 3S', or '-' for stdin")
    d = _hand_dict(parse_cards(args.cards), rules)
    print(json.dumps(d) if args.json else _describe(d))
    return 0


def run_compare(args: argparse.Namespace) -> int:
    """Compare two hands."""
    from commerce.cards import parse_cards
    from commerce.hands import compare

    rules = resolve_rules(args)
    _check_cox(rules, "compare")
    a, b = parse_cards(args.a), parse_cards(args.b)
    result = compare(a, b, rules)
    if args.json:
        print(json.dumps({
            "winner": result.winner,
            "a": _hand_dict(a, rules),
            "b": _hand_dict(b, rules),
            "reason": result.reason,
        }))
    else:
        verdict = {"a": "the first hand wins", "b": "the second hand wins", "tie": "a tie"}
        print(f"A  {_describe(_hand_dict(a, rules))}")
        print(f"B  {_describe(_hand_dict(b, rules))}")
        print(f"{verdict[result.winner]}: {result.reason}")
    return 0


def run_odds(args: argparse.Namespace) -> int:
    """Print the exact distribution of categories."""
    from commerce.odds import category_odds

    rules = resolve_rules(args)
    own = family_spec(rules.family).odds
    if own is not None:
        return _print_family_odds(own(rules), rules.name, args.json)
    _check_cox(rules, "odds")
    odds = category_odds(rules)
    if args.json:
        print(json.dumps(odds))
        return 0
    print(f"{rules.name} ({odds['rules']}), {odds['pack']}-card pack: "
          f"{odds['total']:,} hands")
    for name, count in odds["categories"].items():
        print(f"  {name:<9} {count:>7,}  {count / odds['total']:9.4%}")
    return 0


def _print_family_odds(odds: dict[str, Any], name: str, as_json: bool) -> int:
    """Print a family's own odds table (:attr:`commerce.family.FamilySpec.odds`)."""
    if as_json:
        print(json.dumps(odds))
        return 0
    total = odds["total"]
    print(f"{name} ({odds['rules']}): {odds['title']}, {total:,} in all")
    for key, count in odds["counts"].items():
        print(f"  {key:<9} {count:>7,}  {count / total:9.4%}  {odds['exact'][key]}")
    return 0


def run_score(args: argparse.Namespace) -> int:
    """Score a holding in Cox's game."""
    from commerce.errors import CommerceError
    from commerce.families.cox.cards import format_cox_cards, parse_cox_cards
    from commerce.families.cox.options import CoxOptions
    from commerce.families.cox.scoring import score_holding

    rules = resolve_rules(args)
    if rules.family != "cox":
        raise CommerceError("'score' is for Cox's game (--rules cox); use 'hand' for others")
    opts = CoxOptions.of(rules)
    result = score_holding(
        parse_cox_cards(args.cards),
        args.base,
        captain_can_be_fourth=opts.captain_can_be_fourth,
        bank_double_order=opts.bank_double_order,
        bank_counts_for_clear_hand=opts.bank_counts_for_clear_hand,
    )
    if args.json:
        print(json.dumps(result.to_dict()))
        return 0
    for item in result.breakdown:
        cards = " ".join(format_cox_cards(item.cards).split())
        print(f"  {item.what:<36} {cards:<16} {item.points:>+4}")
    clear = "clear" if result.clear else "not clear"
    complete = "complete" if result.complete else "not complete"
    print(f"score {result.score} ({clear}, {complete})")
    return 0
