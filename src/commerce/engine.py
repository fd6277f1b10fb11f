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

import importlib
import random
from typing import Any

from commerce.core import Action, ActionKind, Decision, Outcome, Seat, Transition
from commerce.errors import IllegalActionError, IllegalReason, RulesetError
from commerce.rules import Family, Ruleset

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
]

_FAMILIES: dict[Family, Any] = {}
_BY_TYPE: dict[type, Any] = {}


def _family(family: Family) -> Any:
    impl = _FAMILIES.get(family)
    if impl is None:
        try:
            impl = importlib.import_module(f"commerce.families.{family.value}")
        except ModuleNotFoundError:  # pragma: no cover - a family not yet implemented
            raise RulesetError(f"no engine for the {family.value} family") from None
        _FAMILIES[family] = impl
        _BY_TYPE[impl.STATE_TYPE] = impl
    return impl


def _ruleset_of(state_or_ruleset: Any) -> Ruleset:
    if isinstance(state_or_ruleset, Ruleset):
        return state_or_ruleset
    ruleset: Ruleset = state_or_ruleset.ruleset
    return ruleset


def family_of(state: Any) -> Any:
    """The family module that implements *state*'s rules."""
    impl = _BY_TYPE.get(type(state))
    if impl is None:
        impl = _family(state.ruleset.family)
    return impl


def new_game(ruleset: Ruleset, players: int, *, dealer: Seat = 0) -> Any:
    """The state of a new game (a session of deals) before the first card is dealt.

    :raises RulesetError: if *players* is outside the ruleset's range.
    """
    if players not in ruleset.player_range():
        raise RulesetError(
            f"{ruleset.name} is for {ruleset.min_players} to {ruleset.max_players} players,"
            f" not {players}"
        )
    if not 0 <= dealer < players:
        raise RulesetError(f"dealer must be a seat from 0 to {players - 1}")
    return _family(ruleset.family).new_game(ruleset, players, dealer)


def decision(state: Any) -> Decision | None:
    """Who must decide what now: a seat or chance, and the kind; None when the game is over."""
    impl = _BY_TYPE.get(type(state)) or family_of(state)
    return impl.decision(state)  # type: ignore[no-any-return]


def legal_actions(state: Any) -> tuple[Action, ...]:
    """The legal actions in a fixed order; at a chance decision, the possible outcomes."""
    impl = _BY_TYPE.get(type(state)) or family_of(state)
    return impl.legal_actions(state)  # type: ignore[no-any-return]


def check(state: Any, action: Action, *, seat: Seat | None = None) -> None:
    """Do nothing if *action* is legal in *state* (and *seat*, if given, is to act).

    :raises IllegalActionError: saying why it is not.
    """
    impl = family_of(state)
    if seat is not None:
        _check_seat(impl, state, seat)
    impl.check(state, action)


def is_legal(state: Any, action: Action, *, seat: Seat | None = None) -> bool:
    """Whether *action* is legal in *state* (defined by :func:`check`)."""
    try:
        check(state, action, seat=seat)
    except IllegalActionError:
        return False
    return True


def apply(state: Any, action: Action, *, seat: Seat | None = None) -> Transition:
    """The successor of *state* after *action*, and the events it caused.

    With *seat*, the action is also refused unless that seat is the one to act (what a
    server or a terminal client checks for the player it speaks for).

    :raises IllegalActionError: if *action* is not legal in *state*; ``reason`` says why.
    """
    impl = _BY_TYPE.get(type(state)) or family_of(state)
    if seat is not None:
        _check_seat(impl, state, seat)
    return impl.apply(state, action)  # type: ignore[no-any-return]


def _check_seat(impl: Any, state: Any, seat: Seat) -> None:
    d = impl.decision(state)
    if d is None:
        raise IllegalActionError(IllegalReason.GAME_OVER, "the game is over")
    if d.seat != seat:
        who = "chance" if d.seat is None else f"seat {d.seat}"
        raise IllegalActionError(IllegalReason.NOT_YOUR_TURN, f"it is not your turn: {who} acts")


def sample_chance(state: Any, rng: random.Random) -> Action:
    """Chance's next action, drawn with the driver's *rng* (only at a chance decision).

    It may deal several cards at once (the whole initial deal); that is the same as
    dealing them one at a time in order, as :func:`legal_actions` lists them.
    """
    return family_of(state).sample_chance(state, rng)  # type: ignore[no-any-return]


def observe(state: Any, seat: Seat | None) -> Any:
    """What *seat* may know (None: a spectator), built from scratch."""
    return family_of(state).observe(state, seat)


def reveal_all(state: Any) -> Any:
    """Everything, every hand visible: for reviews of finished games, never for a player."""
    return family_of(state).reveal_all(state)


def outcome(state: Any) -> Outcome | None:
    """The result of a finished game, or None while it goes on."""
    return family_of(state).outcome(state)  # type: ignore[no-any-return]


def is_terminal(state: Any) -> bool:
    """Whether the game is over."""
    return family_of(state).decision(state) is None


def format_action(state_or_ruleset: Any, action: Action) -> str:
    """Action notation under the family of a state or ruleset, e.g. ``trade TH``."""
    return _family(_ruleset_of(state_or_ruleset).family).format_action(action)  # type: ignore[no-any-return]


def parse_action(state_or_ruleset: Any, text: str) -> Action:
    """Parse action notation under the family of a state or ruleset.

    :raises NotationError: naming what is wrong.
    """
    return _family(_ruleset_of(state_or_ruleset).family).parse_action(text)  # type: ignore[no-any-return]
