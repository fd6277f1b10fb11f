"""The server/page contract's messages built from a real game, for the page's own tests.

A ``view`` here is made as the server makes it: only from ``engine.observe(state, seat)``, the
family's ``presentation`` hook, the seat's legal actions and ``engine.visible_events``.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import random
from typing import Any

from commerce import engine
from commerce.bots import make_bot
from commerce.core import DecisionKind
from commerce.family import family_spec
from commerce.rules import (
    Ruleset,
    family_option_names,
    option_bounds,
    option_choices,
    option_doc,
    rulesets,
)


def ruleset_entries() -> list[dict[str, Any]]:
    """``GET /api/rulesets``: every preset with its options and their defaults."""
    return json.loads(_ruleset_entries())


@functools.cache
def _ruleset_entries() -> str:
    out = []
    for r in rulesets():
        options = []
        for name in family_option_names(r):
            value = getattr(r, name, None)
            if value is None:
                value = r.options.get(name) if isinstance(r.options, dict) else None
            entry: dict[str, Any] = {"name": name, "default": value, "doc": option_doc(name)}
            choices = option_choices(name)
            if choices:
                entry["choices"] = list(choices)
            bounds = option_bounds(name)
            if bounds:
                entry["min"], entry["max"] = bounds
            options.append(entry)
        spec = family_spec(r.family)
        help_ = spec.presentation.rules_help if spec.presentation else None
        out.append({"id": r.id, "title": r.name, "family": r.family, "version": r.version,
                    "min_players": r.min_players, "max_players": r.max_players,
                    "options": options, "unit": spec.unit,
                    "ranking": help_(r) if help_ else []})
    return json.dumps(out)


OFFERS = (DecisionKind.POUNCE_OFFER, DecisionKind.BUY_OFFER)
"""Decisions offered out of turn."""


class Game:
    """One game moved on by its chance and bot-free actions, seen from a seat."""

    def __init__(self, ruleset: Ruleset, names: list[str], seed: int = 1) -> None:
        self.names = names
        self.state = engine.new_game(ruleset, len(names))
        self.rng = random.Random(seed)
        self.events: list[Any] = []
        self.version = 0
        self.settle()

    def settle(self) -> None:
        """Plays chance until a seat must act."""
        while not engine.is_terminal(self.state):
            d = engine.decision(self.state)
            if d is None or d.seat is not None:
                return
            self.apply(engine.sample_chance(self.state, self.rng))

    def apply(self, action: Any) -> None:
        """Applies one action (and any chance after it)."""
        self.state, events = engine.apply(self.state, action)
        self.events.extend(events)
        self.version += 1

    def act(self, notation: str) -> None:
        """Applies an action given in the family's notation."""
        self.apply(engine.parse_action(self.state, notation))
        self.settle()

    def view(self, seat: int | None) -> dict[str, Any]:
        """The contract's ``view`` message for *seat* (None: a spectator)."""
        spec = engine.family_of(self.state)
        obs = engine.observe(self.state, seat)
        assert spec.presentation is not None and spec.presentation.table is not None
        table = json.loads(json.dumps(dataclasses.asdict(spec.presentation.table(obs, self.names))))
        actions = []
        d = engine.decision(self.state)
        if d is not None and seat is not None and d.seat == seat:
            for a in engine.legal_actions(self.state):
                group = spec.presentation.menu_group(a, obs) if spec.presentation.menu_group \
                    else None
                label = spec.action_label(a, obs) if spec.action_label \
                    else engine.format_action(self.state, a)
                actions.append({"notation": engine.format_action(self.state, a), "label": label,
                                "cards": list(a.cards), "out_of_turn": d.kind in OFFERS,
                                "group": group.heading if group else None,
                                "short": group.short if group else None})
        symbols = spec.presentation.card_symbols or (lambda text: text)
        log = [symbols(line) for e in engine.visible_events(self.events, seat)
               if (line := spec.describe_event(e, self.names, seat))]
        return {"type": "view", "version": self.version, "seat": seat, "table": table,
                "actions": actions, "log": log[-50:], "status": "playing",
                "showdown": None, "standings": None}

    def bots_until(self, seat: int, level: str = "random") -> None:
        """Plays the other seats with a bot until *seat* must act or the game ends."""
        bot = make_bot(level)
        while not engine.is_terminal(self.state):
            d = engine.decision(self.state)
            assert d is not None and d.seat is not None
            if d.seat == seat:
                return
            obs = engine.observe(self.state, d.seat)
            self.apply(bot.act(obs, engine.legal_actions(self.state), self.rng))
            self.settle()
