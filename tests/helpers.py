"""Scenario helpers shared by the preset tests: deal named cards, act in notation."""

from __future__ import annotations

from typing import Any

from commerce import engine
from commerce.cards import parse_cards
from commerce.core import Action, ActionKind, Event
from commerce.rules import Ruleset, find_ruleset


def play_order(rules: Ruleset, players: int, dealer: int, out: tuple[int, ...] = ()) -> list[int]:
    """Seats in the order cards are dealt and turns are taken: eldest first, dealer last."""
    step = 1 if rules.direction == "left" else -1
    seats = [(dealer + step * i) % players for i in range(1, players + 1)]
    return [s for s in seats if s not in out]


def deal_action(state: Any, hands: dict[int, str], widow: str = "") -> Action:
    """The chance action that deals *hands* (seat -> three cards) and then the *widow*.

    Cards go one at a time from the eldest, as the engine deals them.
    """
    order = play_order(state.ruleset, state.players, state.dealer,
                       tuple(s for s in range(state.players) if s not in hands))
    parsed = {seat: parse_cards(text) for seat, text in hands.items()}
    cards = [parsed[seat][k] for k in range(3) for seat in order]
    cards.extend(parse_cards(widow))
    return Action(ActionKind.DEAL, tuple(cards))


def start(ruleset: str | Ruleset, players: int, hands: dict[int, str], widow: str = "",
          dealer: int = 0, **options: Any) -> Any:
    """A new game with the first deal made of named cards."""
    rules = find_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
    if options:
        rules = rules.with_options(**options)
    state = engine.new_game(rules, players, dealer=dealer)
    return engine.apply(state, deal_action(state, hands, widow)).state


class Table:
    """A game in progress driven by notation, keeping every event."""

    def __init__(self, state: Any) -> None:
        self.state = state
        self.events: list[Event] = []

    def act(self, *texts: str) -> Table:
        """Apply each action in notation; ``deal XX`` for chance."""
        for text in texts:
            action = engine.parse_action(self.state, text)
            transition = engine.apply(self.state, action)
            self.state = transition.state
            self.events.extend(transition.events)
        return self

    def deal(self, hands: dict[int, str], widow: str = "") -> Table:
        """Make the next initial deal with named cards."""
        transition = engine.apply(self.state, deal_action(self.state, hands, widow))
        self.state = transition.state
        self.events.extend(transition.events)
        return self

    @property
    def decision(self) -> Any:
        return engine.decision(self.state)

    def legal(self) -> list[str]:
        return [engine.format_action(self.state, a) for a in engine.legal_actions(self.state)]

    def kinds(self, kind: str) -> list[Event]:
        return [e for e in self.events if e.kind == kind]
