"""The end of a hand: every holding is counted, and the next hand begins (or the game ends).

Cox: a hand ends when a player sells out or when the supply runs out; every player scores his
holding (docs/rulesets/cox.md, "Scoring"; decisions #33, #35, #39); after ``hands_per_game`` hands
the highest total wins (decision #40).
"""

from __future__ import annotations

from commerce.core import Event, Seat, evolve
from commerce.families.cox.game import new_hand
from commerce.families.cox.layout import faces
from commerce.families.cox.options import CoxOptions
from commerce.families.cox.scoring import score_holding
from commerce.families.cox.state import CoxState, Phase, Turn

_SUMMARY_KINDS = frozenset({"sold_out", "supply_exhausted", "hand_scored", "game_over"})


def end_hand(s: CoxState, *, reason: str, seller: Seat | None, out: list[Event]) -> CoxState:
    """Count every seat's rack, laid-out cards and Greenbacks with
    :func:`commerce.families.cox.scoring.score_holding`; add the scores to the totals; show
    every rack. After the last hand the game is over; otherwise the next hand begins, every
    seat seeing how this one ended."""
    rules = s.ruleset
    opts = CoxOptions.of(rules)
    deal = s.deal
    scores = [
        score_holding(
            [*deal.racks[q], *(c for g in deal.laid[q] for c in g), *deal.greenbacks[q]],
            deal.base_numbers[q],
            captain_can_be_fourth=opts.captain_can_be_fourth,
            bank_double_order=opts.bank_double_order,
            bank_counts_for_clear_hand=opts.bank_counts_for_clear_hand,
        )
        for q in range(s.players)
    ]
    points = tuple(sc.score for sc in scores)
    totals = tuple(t + p for t, p in zip(s.session.totals, points, strict=True))
    last = s.session.hand_number >= opts.hands_per_game
    out.append(Event("hand_scored", seller, (
        ("hand", s.session.hand_number),
        ("reason", reason),
        ("racks", tuple(faces(sorted(r)) for r in deal.racks)),
        ("scores", points),
        ("breakdowns", tuple(sc.to_dict() for sc in scores)),
        ("totals", totals),
        ("last", last),
    )))
    if last:
        best = max(totals)
        winners = tuple(i for i, t in enumerate(totals) if t == best)
        out.append(Event("game_over", None, (("totals", totals), ("winners", winners))))
    summary = tuple(e for e in out if e.visible_to is None and e.kind in _SUMMARY_KINDS)
    ended = evolve(
        s,
        session=evolve(s.session, totals=totals,
                       hand_scores=(*s.session.hand_scores, points)),
        turn=Turn(phase=Phase.OVER, player=s.turn.player, actor=s.turn.actor),
    )
    if last:
        return ended
    return new_hand(ended, summary, out)
