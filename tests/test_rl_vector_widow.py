"""The compiled vector environment (:mod:`commerce.rl.vector`) of the widow games against the
reference engine.

Every game's recorded actions (the learner's, the bots', chance's cards) are replayed through
``engine.apply``: each must be legal where it was played, every learner action the one given
to ``step``, every heuristic bot's choice the Python heuristic's from the seat's observation,
and every observation, mask and reward the vector environment returns what ``CommerceGym``'s
encoding of ``engine.observe(state, seat)`` and the deal reader give for the learning seat at
that state (so no hidden card can leak into an observation: it is the reference's), a
whole-game episode's rewards summing to the learner's final balance as ``CommerceGym``'s do.
Then seeds, Gymnasium's registration, and the refusals. The replay and the checks every
family shares are in ``tests/harness/vector_env.py``; this module gives the widow family's
:class:`Twin` and its cases.
"""

from __future__ import annotations

from typing import Any

import pytest

from commerce import engine
from commerce.errors import CommerceError
from commerce.families.widow.compiled_rules import decode_action
from tests.harness import vector_env as harness


class Twin(harness.ReplayTwin):
    """One game of the widow family's vector environment, replayed through the reference
    engine: a whole-game episode is paid the game's total, the pool shared out."""

    family = "widow"
    decode = staticmethod(decode_action)

    def opening(self, state: Any) -> list[Any]:
        """The events a fresh game's first deal opens with."""
        return list(state.deal.log)

    def game_over(self) -> None:
        """A whole-game episode's rewards sum to the learner's final balance."""
        result = engine.outcome(self.state)
        assert result is not None
        if self.episode == "game":  # the game's total, the pool shared out
            self.pending += result.payoffs[self.seat] - self.paid
            self.paid = float(result.payoffs[self.seat])


CASES: list[tuple[str, dict[str, Any], int, int, str, str, str, int]] = [
    # rules, options, players, seat, opponents, episode, autoreset, steps
    ("widow", {}, 4, 0, "heuristic", "deal", "same_step", 30),
    ("widow", {"direction": "right", "exchange_all_three_locks": False,
               "max_exchange_per_turn": 2}, 3, 2, "random", "deal", "same_step", 30),
    ("pounce", {"starting_tokens": 1, "pack": 32}, 4, 1, "heuristic", "game", "same_step",
     40),
    ("pool", {"starting_tokens": 1, "deal_prize": 1}, 4, 2,
     "random,heuristic,heuristic:boldness=0.8", "game", "same_step", 40),  # horses, the pool
    ("peel-old", {"pass_locks_out": False}, 3, 0, "heuristic:boldness=0.9", "deal",
     "next_step", 30),
    ("no-pair-or-point", {"starting_tokens": 1, "dealer_blind_exchange": "all_or_nothing",
                          "worst_tie_rule": "latest_in_rotation_loses"}, 5, 4, "random",
     "game", "next_step", 40),
    ("widow-mini", {}, 2, 1, "random", "game", "same_step", 30),
    ("pounce", {"pounce_after_pass": False, "end_condition": "rounds_eq_players",
                "add_widow_card_each_round": False, "best_tie_rule": "dealer_as_eldest",
                "widow_size": 5, "pack": 32}, 4, 3, "heuristic", "deal", "same_step", 30),
]


@pytest.mark.parametrize("rid,options,players,seat,opponents,episode,mode,steps", CASES,
                         ids=harness.case_ids(CASES))
def test_every_step_replays_through_the_reference(rid: str, options: dict[str, Any],
                                                  players: int, seat: int, opponents: str,
                                                  episode: str, mode: str,
                                                  steps: int) -> None:
    twins = harness.replay_steps(Twin, rid, options, players, seat, opponents, episode,
                                 mode, num_envs=6, steps=steps)
    kinds = set().union(*(t.kinds for t in twins))
    if rid == "pounce" and episode == "game":
        assert {"blind_exchange", "pounce_offer", "final_turn"} <= kinds, kinds
    if rid == "pool":
        assert "horse_offer" in kinds, kinds


def test_the_spaces_are_commerce_gyms() -> None:
    for rid, players in (("widow", 4), ("widow-mini", 2), ("peel-old", 7)):
        harness.check_spaces(rid, players)


def test_gymnasium_makes_the_widow_presets() -> None:
    v = harness.vector()
    for name in ("PeelOld", "Pool", "Widow", "Pounce", "NoPairOrPoint", "WidowMini"):
        assert f"commerce/{name}Vector-v0" in v.VECTOR_ENV_IDS
    env, returns = harness.episode_returns("commerce/WidowMiniVector-v0", 40, num_envs=5,
                                           opponents="random", episode="game")
    assert env.players == 2
    # a whole game of the widow game moves tokens: what one seat wins, the other loses
    assert returns and all(float(r).is_integer() and r != 0 for r in returns)


def test_seeds_reproduce_and_threads_change_nothing() -> None:
    v = harness.vector()

    def make(**kw: Any) -> Any:
        return v.CommerceVectorEnv("pounce", 4, num_envs=7, opponents="random", **kw)

    harness.check_seeds(make, steps=12)


def test_an_illegal_action_is_refused_and_nothing_is_played() -> None:
    v = harness.vector()
    harness.check_illegal_refused(lambda: v.CommerceVectorEnv("widow", 4, num_envs=4, seed=4),
                                  game=2, steps=4)


@pytest.mark.parametrize("rid,options,message", [
    ("widow", {"max_rounds_per_deal": 0}, "max_rounds_per_deal=0.*CommerceGym"),
    ("no-pair-or-point", {"pounce": True, "four_of_a_kind": True,
                          "no_qualifier_rule": "fallback_full_ranking"},
     "fallback_full_ranking.*CommerceGym"),
])
def test_what_the_kernel_does_not_play_is_refused_by_name(rid: str, options: dict[str, Any],
                                                          message: str) -> None:
    v = harness.vector()
    with pytest.raises(CommerceError, match=message):
        v.CommerceVectorEnv(rid, 4, set=options)
    with pytest.raises(CommerceError, match="opponents are random or heuristic"):
        v.CommerceVectorEnv(rid, 4, opponents="search")
