"""Cox's compiled kernel against the reference engine, decision for decision.

Every game the kernel plays is recorded and replayed through ``engine.apply``: each action
must be legal where the kernel played it (chance's cards included), each decision the seat's
the reference asks for, each heuristic choice the Python heuristic's from that seat's own
observation, and each hand's seller, turns, categories, decisions and winners (as the
reference's deal reader reads them, :func:`commerce.families.cox.deals.read_cox_deals`), the
payoffs, the hands won and the decisions the reference's.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from commerce import engine
from commerce.apps.runner import choose_engine
from commerce.compiled import build_kernel, run_batch
from commerce.core import Action, ActionKind, DecisionKind
from commerce.errors import CommerceError, RulesetError
from commerce.families.cox import scoring
from commerce.families.cox.cards import BANK, CAPTAINS, face_of
from commerce.families.cox.compiled_rules import _W_CNT, SCRATCH_SIZE, _best, _complete
from commerce.families.cox.deals import read_cox_deals
from commerce.families.cox.kernel import CATEGORIES, SUPPORTED, check_supported, decode_action
from commerce.family import family_spec
from commerce.rules import Ruleset, find_ruleset
from tests.harness.cox import Rigged, rigged_for
from tests.harness.options import Case, check_case, option_cases

HEURISTIC = family_spec("cox").heuristic
COX = find_ruleset("cox")


class Strict(Rigged):
    """:class:`~tests.harness.cox.Rigged`, refusing to choose among every legal action."""

    def randrange(self, *args: Any, **kwargs: Any) -> int:
        raise AssertionError("the heuristic chose at random among every legal action")


def _rigged(legal: tuple[Action, ...], action: Action) -> Strict:
    return Strict(rigged_for(legal, action).favoured)


def replay(rules: Ruleset, players: int, result: Any, row: int,
           bots: tuple[str, ...] = ("random",)) -> int:
    """Replay game *row* of *result* through the reference, the heuristic's choices checked
    against the Python heuristic's from the seat's observation; the hands played."""
    spec = [bots[i % len(bots)] for i in range(players)]
    count = int(result.action_counts[row])
    assert count > 0, f"game {row}: its record overflowed"
    state = engine.new_game(rules, players, dealer=int(result.dealers[row]))
    events = list(getattr(state, "log", ()))
    at = [0] * len(events)  # the player decisions made before each event
    hand = decisions = turns = 0
    seller = -1
    for code in result.actions[row, :count]:
        action = decode_action(int(code))
        d = engine.decision(state)
        assert d is not None, f"game {row}: the kernel played on after the end"
        if d.seat is None:
            assert action.kind is ActionKind.DEAL
        else:
            decisions += 1
            legal = engine.legal_actions(state)
            assert action in legal, f"game {row}: {action} is not legal"
            if d.kind is DecisionKind.DRAW_OR_BUY:
                turns += 1
            if spec[d.seat].startswith("heuristic"):
                obs = engine.observe(state, d.seat)
                chosen = HEURISTIC(obs, legal, _rigged(legal, action), 0.5)
                assert chosen == action, (
                    f"game {row}: the compiled heuristic played {action} where the Python "
                    f"heuristic plays {chosen} ({d.kind.value})")
        transition = engine.apply(state, action)  # raises IllegalActionError if illegal
        events.extend(transition.events)
        at.extend([decisions] * len(transition.events))
        for event in transition.events:
            if event.kind == "sold_out":
                assert event.seat is not None
                seller = event.seat
            if event.kind == "hand_scored":
                assert seller == result.standers[row, hand], f"game {row} hand {hand}"
                assert turns == result.deal_turns[row, hand], f"game {row} hand {hand}"
                hand += 1
                seller, turns = -1, 0
        state = transition.state
    assert engine.decision(state) is None, f"game {row}: the kernel stopped before the end"
    outcome = engine.outcome(state)
    assert outcome is not None
    assert outcome.payoffs == tuple(int(x) for x in result.payoffs[row])
    assert outcome.details["hands_won"] == tuple(int(x) for x in result.deals_won[row])
    assert decisions == result.decisions[row]
    # each hand as the analyses read it: the categories, the decisions made in the hand (up
    # to its count, as the variants analysis counts them) and the best scores, a bit mask
    deals = read_cox_deals(rules, players, events)
    assert len(deals) == hand == result.deal_decisions.shape[1]
    assert [d.categories for d in deals] == [
        tuple(CATEGORIES[int(c)] for c in result.categories[row, h]) for h in range(hand)]
    ends = [at[d.end] for d in deals]
    assert [b - a for a, b in zip([0, *ends[:-1]], ends, strict=True)] == \
        result.deal_decisions[row].tolist()
    assert [sum(1 << w for w in d.winners) for d in deals] == result.deal_winners[row].tolist()
    # each seat's points for each hand, and the hand's Retailer (the analyses' dealer)
    assert [list(d.payoffs) for d in deals] == \
        result.deal_payoffs[row].astype(float).tolist(), f"game {row}"
    assert [d.dealer for d in deals] == result.deal_dealers[row].tolist()
    return hand


LINEUPS = (("random",), ("heuristic",), ("heuristic", "random"))


@pytest.mark.parametrize("lineup", LINEUPS, ids=["random", "heuristic", "mixed"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_games_replay_through_the_reference(lineup: tuple[str, ...], players: int) -> None:
    games = 25
    result = run_batch(COX, players=players, games=games, seed=players, bots=list(lineup),
                       record=True, threads=1)
    for row in range(games):
        assert replay(COX, players, result, row, lineup) == COX.hands_per_game


VARIANTS: list[tuple[dict[str, Any], int]] = [
    ({"buy_offers": "eligible_only", "last_discard_buyable": "yes", "direction": "left"}, 4),
    ({"captain_can_be_fourth": True, "bank_double_order": "before_penalty",
      "hands_per_game": 2}, 3),
    ({"bank_counts_for_clear_hand": True, "last_discard_buyable": "no",
      "replacement_fallback": "skip", "hands_per_game": 2}, 4),
    ({"buy_offers": "eligible_only", "captain_can_be_fourth": True, "hands_per_game": 1}, 2),
]


@pytest.mark.parametrize("options,players", VARIANTS,
                         ids=["-".join(o) for o, _ in VARIANTS])
def test_options_replay_through_the_reference(options: dict[str, Any], players: int) -> None:
    rules = COX.with_options(**options)
    result = run_batch(rules, players=players, games=12, seed=5, bots=["heuristic", "random"],
                       record=True, threads=1)
    for row in range(12):
        replay(rules, players, result, row, ("heuristic", "random"))


OPTION_CASES = option_cases("cox", check_supported)


@pytest.mark.parametrize("case", OPTION_CASES, ids=str)
def test_every_declared_value_of_every_option_replays_or_is_refused(case: Case) -> None:
    # from the options' declarations (tests/harness/options.py): the kernel plays each value
    # it declares (SUPPORTED) as the reference does, and refuses every other by name
    check_case(case, SUPPORTED, replay)


def test_a_rule_changed_in_the_reference_alone_fails_the_check(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import dataclasses

    from commerce.families.cox import settle

    case = Case("cox", "hands_per_game", 1, 4)
    assert check_case(case, SUPPORTED, replay) == "played"
    # the reference doubles every holding's score at the count; the kernel does not
    real = settle.score_holding
    monkeypatch.setattr(settle, "score_holding", lambda *args, **kwargs: dataclasses.replace(
        real(*args, **kwargs), score=2 * real(*args, **kwargs).score))
    with pytest.raises(AssertionError):
        check_case(case, SUPPORTED, replay)


def test_a_waiting_hand_spoiled_by_laying_out_discards_as_after_any_purchase() -> None:
    # With captain_can_be_fourth a card bought to sell out may be laid as a fourth and its
    # replacement spoil the hand: the buyer then discards (decision #32), in the reference
    # and the kernel alike (before, his decision had no legal action)
    from commerce.families.cox.choices import sell_outs
    from commerce.families.cox.state import Phase

    rules = COX.with_options(captain_can_be_fourth=True)
    result = run_batch(rules, players=4, games=40, seed=2, bots=["random"], record=True)
    spoiled = 0
    for row in range(40):
        replay(rules, 4, result, row)  # every action the kernel played is legal
        state: Any = engine.new_game(rules, 4, dealer=int(result.dealers[row]))
        for code in result.actions[row, :int(result.action_counts[row])]:
            turn = state.turn
            if turn.phase is Phase.DISCARD and turn.must_sell_out and not sell_outs(state):
                spoiled += 1
                legal = engine.legal_actions(state)
                assert legal and all(a.kind is ActionKind.DISCARD for a in legal)
            state = engine.apply(state, decode_action(int(code))).state
    assert spoiled >= 1  # the games reach such a turn


def test_results_depend_on_the_seed_alone() -> None:
    kern = build_kernel(COX, 4)
    one = run_batch(COX, players=4, games=40, seed=11, bots=["heuristic", "random"], threads=1,
                    kernel=kern, details=True)
    two = run_batch(COX, players=4, games=40, seed=11, bots=["heuristic", "random"], threads=2,
                    kernel=kern, details=True)
    for a, b in zip(one.arrays(), two.arrays(), strict=True):
        assert np.array_equal(a, b)
    assert (one.deals_won.sum(axis=1) >= COX.hands_per_game).all()


def test_what_the_kernel_does_not_play_is_refused() -> None:
    with pytest.raises(RulesetError, match="2 to 4 players, not 5"):
        build_kernel(COX, 5)
    from commerce.families.cox.kernel import check_supported

    with pytest.raises(RulesetError, match="plays the cox family, not widow"):
        check_supported(find_ruleset("widow"))
    with pytest.raises(CommerceError, match="search has no compiled policy"):
        run_batch(COX, players=4, games=2, seed=0, bots=["search"])
    assert choose_engine(COX, 4, ["random", "heuristic"], "auto") == (
        "compiled", "every bot has a compiled policy")
    assert choose_engine(COX, 4, ["heuristic"], "compiled")[0] == "compiled"


@pytest.mark.parametrize("options", [{}, {"captain_can_be_fourth": True},
                                     {"last_discard_buyable": "no"}])
def test_each_holding_kept_as_cards_move_is_the_one_built_anew(options: dict[str, Any]) -> None:
    """The holdings the kernel keeps as cards move (``_HOLD``: counts by kind, wild cards,
    cards, kinds, lone cards) equal, after every action of random games, the ones built anew
    from the racks and layouts; a state written from outside gets them built
    (:func:`holdings`)."""
    from commerce.families.cox.compiled_game import _start_hand
    from commerce.families.cox.compiled_rules import (
        _ACTOR,
        _HAND,
        _HOLD,
        _HW,
        _OVER,
        _PHASE,
        _START,
        _W_LEGAL,
        SCRATCH_SIZE,
        STATE_SIZE,
        holdings,
    )
    from commerce.families.cox.compiled_turn import apply_code, end_hand, legal

    rules = COX.with_options(**options) if options else COX
    rng = np.random.default_rng(7)
    checked = 0
    for players in (2, 3, 4):
        kern = build_kernel(rules, players)
        cfg = kern.cfg
        for game in range(6):
            g = np.zeros(STATE_SIZE, np.int64)
            w = np.zeros(SCRATCH_SIZE, np.int64)
            g[_HAND], g[_PHASE] = 1, _START
            while g[_PHASE] != _OVER:
                if g[_PHASE] == _START:
                    _start_hand(g, cfg, w, np.uint64(game * 31 + int(g[_HAND])), 0,
                                np.zeros((1, 0), np.int64), 0)
                else:
                    n = legal(g, cfg, w)
                    assert 0 <= g[_ACTOR] < players
                    if apply_code(g, cfg, w, int(w[_W_LEGAL + rng.integers(n)])):
                        end_hand(g, cfg, w)
                built = g.copy()
                built[_HOLD:] = -9
                holdings(built, players, np.zeros(SCRATCH_SIZE, np.int64))
                kept = g[_HOLD:_HOLD + players * _HW]
                assert kept.tolist() == built[_HOLD:_HOLD + players * _HW].tolist(), (
                    f"{players} players, game {game}: the kept holdings drifted")
                checked += 1
    assert checked > 1000


@settings(max_examples=400, deadline=None)
@example(kinds=[(0, 3), (1, 2), (2, 2)], wilds={CAPTAINS[0]}, cap4=False)  # a pair made three
@example(kinds=[(0, 3), (1, 3), (2, 1)], wilds={CAPTAINS[0]}, cap4=False)  # a lone card paired
@example(kinds=[(0, 3), (15, 2), (16, 3)], wilds={BANK}, cap4=True)
@example(kinds=[(0, 3), (1, 3), (4, 1)], wilds={CAPTAINS[0], BANK}, cap4=True)
@given(kinds=st.lists(st.tuples(st.sampled_from((0, 1, 2, 4, 5, 9, 15, 16)), st.integers(1, 4)),
                      min_size=1, max_size=5, unique_by=lambda t: t[0]),
       wilds=st.sets(st.sampled_from(CAPTAINS + (BANK,))), cap4=st.booleans())
def test_compiled_completeness_and_best_points_are_the_scorings(
        kinds: list[tuple[int, int]], wilds: set[int], cap4: bool) -> None:
    # the compiled tests count a placement of the wild cards from the counts without them;
    # the scoring places each wild card and counts the whole holding again (kinds of the
    # first suit mostly, where its Captain may go, and two of the honours, where the Bank)
    counts = [0] * 18
    for k, n in kinds:
        counts[k] = n
    placed = tuple(sorted(wilds))
    w = np.zeros(SCRATCH_SIZE, np.int64)
    w[_W_CNT:_W_CNT + 18] = counts
    w[_W_CNT + 18] = sum(1 << (face_of(c) - 15) for c in placed)
    complete = sum(counts) + len(placed) in (8, 9, 10) and scoring._complete(
        tuple(counts), placed, cap4)
    assert _complete(w, _W_CNT, cap4) == complete
    assert _best(w, _W_CNT, cap4) == scoring._best(tuple(counts), placed, cap4)[0]
    assert list(w[_W_CNT:_W_CNT + 18]) == counts  # the counts are left as they were
