"""The public rules API, the same for every ruleset.

>>> from commerce.rules import find_ruleset
>>> state = new_game(find_ruleset("peel"), players=4)
>>> decision(state)
Decision(seat=None, kind=<DecisionKind.CHANCE: 'chance'>)
>>> len(legal_actions(state))   # chance: any of the 52 cards may be dealt first
52
>>> apply(state, Action(ActionKind.STAND))
Traceback (most recent call last):
...
commerce.errors.IllegalActionError: chance must act now (deal a card), not a player

The public :func:`apply` always checks legality; an illegal action raises
:class:`~commerce.errors.IllegalActionError` whose ``reason`` says why.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from commerce.core import Action, ActionKind, Decision, Event, Outcome, Seat, Transition
from commerce.errors import IllegalActionError, IllegalReason, RulesetError
from commerce.family import FamilySpec, GameState, Observation, family_spec, spec_of
from commerce.rules import Ruleset

__all__ = [
    "Action",
    "ActionKind",
    "apply",
    "check",
    "decision",
    "family_of",
    "format_action",
    "is_legal",
    "is_terminal",
    "legal_actions",
    "new_game",
    "observe",
    "outcome",
    "parse_action",
    "reveal_all",
    "sample_chance",
    "visible_events",
]

def family_of(state: GameState) -> FamilySpec[Any, Any]:
    """The family (its :class:`~commerce.family.FamilySpec`) whose rules *state* follows."""
    return spec_of(state)


def _ruleset_of(state_or_ruleset: GameState | Ruleset) -> Ruleset:
    if isinstance(state_or_ruleset, Ruleset):
        return state_or_ruleset
    return state_or_ruleset.ruleset


def new_game(ruleset: Ruleset, players: int, *, dealer: Seat = 0) -> GameState:
    """The state of a new game (a session of deals) before the first card is dealt.

    :raises RulesetError: if *players* is outside the ruleset's range.
    """
    if players not in ruleset.player_range():
        raise RulesetError(
            f"{ruleset.name} is for {ruleset.players_phrase()}, not {players}"
        )
    if not 0 <= dealer < players:
        raise RulesetError(f"dealer must be a seat from 0 to {players - 1}")
    state: GameState = family_spec(ruleset.family).new_game(ruleset, players, dealer)
    return state


def decision(state: GameState) -> Decision | None:
    """Who must decide what now: a seat or chance, and the kind; None when the game is over."""
    result: Decision | None = spec_of(state).decision(state)
    return result


def legal_actions(state: GameState) -> tuple[Action, ...]:
    """The legal actions in a fixed order; at a chance decision, the possible outcomes."""
    result: tuple[Action, ...] = spec_of(state).legal_actions(state)
    return result


def check(state: GameState, action: Action, *, seat: Seat | None = None) -> None:
    """Do nothing if *action* is legal in *state* (and *seat*, if given, is to act).

    :raises IllegalActionError: saying why it is not.
    """
    spec = spec_of(state)
    if seat is not None:
        _check_seat(spec, state, seat)
    spec.check(state, action)


def is_legal(state: GameState, action: Action, *, seat: Seat | None = None) -> bool:
    """Whether *action* is legal in *state* (defined by :func:`check`)."""
    try:
        check(state, action, seat=seat)
    except IllegalActionError:
        return False
    return True


def apply(state: GameState, action: Action, *, seat: Seat | None = None) -> Transition:
    """The successor of *state* after *action*, and the events it caused.

    With *seat*, the action is also refused unless that seat is the one to act (what a
    server or a terminal client checks for the player it speaks for).

    :raises IllegalActionError: if *action* is not legal in *state*; ``reason`` says why.
    """
    spec = spec_of(state)
    if seat is not None:
        _check_seat(spec, state, seat)
    result: Transition = spec.apply(state, action)
    return result


def _check_seat(spec: FamilySpec[Any, Any], state: GameState, seat: Seat) -> None:
    d: Decision | None = spec.decision(state)
    if d is None:
        raise IllegalActionError(IllegalReason.GAME_OVER, "the game is over")
    if d.seat != seat:
        who = "chance" if d.seat is None else f"seat {d.seat}"
        raise IllegalActionError(IllegalReason.NOT_YOUR_TURN, f"it is not your turn: {who} acts")


def sample_chance(state: GameState, rng: random.Random) -> Action:
    """Chance's next action, drawn with the driver's *rng* (only at a chance decision).

    It may deal several cards at once (the whole initial deal); that is the same as
    dealing them one at a time in order, as :func:`legal_actions` lists them.
    """
    action: Action = spec_of(state).sample_chance(state, rng)
    return action


def observe(state: GameState, seat: Seat | None) -> Observation:
    """What *seat* may know (None: a spectator), built from scratch."""
    obs: Observation = spec_of(state).observe(state, seat)
    return obs


def reveal_all(state: GameState) -> Observation:
    """Everything, every hand visible: for reviews of finished games, never for a player."""
    obs: Observation = spec_of(state).reveal_all(state)
    return obs


def outcome(state: GameState) -> Outcome | None:
    """The result of a finished game, or None while it goes on."""
    result: Outcome | None = spec_of(state).outcome(state)
    return result


def visible_events(events: Iterable[Event], seat: Seat | None) -> tuple[Event, ...]:
    """The events *seat* may see (None: a spectator), in order: the one way a seat gets its
    events (the driver forwards only these)."""
    return tuple(e for e in events if e.visible(seat))


def is_terminal(state: GameState) -> bool:
    """Whether the game is over."""
    return spec_of(state).decision(state) is None


def format_action(state_or_ruleset: GameState | Ruleset, action: Action) -> str:
    """Action notation under the family of a state or ruleset, e.g. ``trade TH``."""
    text: str = family_spec(_ruleset_of(state_or_ruleset).family).format_action(action)
    return text


def parse_action(state_or_ruleset: GameState | Ruleset, text: str) -> Action:
    """Parse action notation under the family of a state or ruleset.

    :raises NotationError: naming what is wrong.
    """
    action: Action = family_spec(_ruleset_of(state_or_ruleset).family).parse_action(text)
    return action
