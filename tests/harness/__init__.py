"""Generic test helpers written only against the public engine API and the family contract
(:class:`commerce.family.FamilySpec`), so they run on every registered family unedited."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

from commerce import engine
from commerce.core import Action
from commerce.family import FamilySpec, family_spec
from commerce.rules import Ruleset, rulesets


def all_rulesets() -> list[Ruleset]:
    """Every registered preset, in registration order."""
    return list(rulesets())


def table_sizes(rules: Ruleset) -> list[int]:
    """The numbers of players the generic tests try: the fewest, four and the most (at most
    six), where the ruleset allows them."""
    sizes = {rules.min_players, min(max(4, rules.min_players), rules.max_players),
             min(rules.max_players, 6)}
    return sorted(sizes)


def cases() -> list[tuple[Ruleset, int]]:
    """(ruleset, players) for every preset and every size of :func:`table_sizes`."""
    return [(r, n) for r in all_rulesets() for n in table_sizes(r)]


def case_id(case: tuple[Ruleset, int]) -> str:
    """``peel-4p``."""
    return f"{case[0].id}-{case[1]}p"


def spec(rules: Ruleset) -> FamilySpec[Any, Any]:
    """The family of *rules*."""
    return family_spec(rules.family)


def hook(rules: Ruleset, name: str) -> Callable[..., Any]:
    """A test hook of the family of *rules*; a family that leaves it out fails the test."""
    fn = getattr(spec(rules), name)
    assert fn is not None, f"the {rules.family} family does not provide {name}"
    return fn  # type: ignore[no-any-return]


def random_game(rules: Ruleset, players: int, seed: int,
                each: Callable[[Any], None] | None = None) -> tuple[Any, list[Action]]:
    """A game of uniformly random legal choices through the checked API, chance drawn with a
    generator of its own; *each* is called on every state, the last included."""
    rng = random.Random(seed)
    chance = random.Random(seed + 1_000_003)
    state = engine.new_game(rules, players, dealer=seed % players)
    actions: list[Action] = []
    while True:
        if each is not None:
            each(state)
        d = engine.decision(state)
        if d is None:
            return state, actions
        if d.seat is None:
            action = engine.sample_chance(state, chance)
        else:
            legal = engine.legal_actions(state)
            action = legal[rng.randrange(len(legal))]
        actions.append(action)
        state = engine.apply(state, action).state


def sampled_states(rules: Ruleset, players: int, seed: int, every: int) -> Iterator[Any]:
    """Every *every*-th state of :func:`random_game` (the first and the last included)."""
    seen: list[Any] = []
    step = 0

    def keep(state: Any) -> None:
        nonlocal step
        if step % every == 0 or engine.decision(state) is None:
            seen.append(state)
        step += 1

    random_game(rules, players, seed, keep)
    return iter(seen)
