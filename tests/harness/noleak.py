"""The no-leak harness: one tool over every surface a seat is shown.

For sampled states of a ruleset and each seat, the family's ``permute_hidden`` relabels what
that seat cannot know (other hands, the stock, copy numbers ...) and every surface built for
that seat must come out the same from the state and from its twin:

``observe``
    the observation itself;
``json``
    the observation's JSON form (``to_dict``), where the family has one;
``render``
    the observation as terminal text (``render``);
``event_text``
    every event in the observation in words (``describe_event``);
``legal``
    when the seat is to act: the legal actions in notation, and their menu labels;
``events``
    the events the seat sees of the next action (the seat's own, by notation; chance's and
    another seat's, with the twin's cards in place of the relabelled ones), as tuples, words
    and JSON, at *every* step of every sampled game (every decision, chance's and the blind
    dealer's included), not only at the sampled states. A transition that shows the seat a
    relabelled card (a deal to it, a showdown) is legitimately different and is counted as
    *revealing*, not compared, but only where the seat's next view shows it that card too:
    an event naming a card the seat still cannot see after the action (one that
    ``permute_hidden`` of the next state may still relabel) is a leak, whatever the views;
``heuristic``, ``search``
    when the seat is to act: the bots' choices (notation) with the same generator seed
    (search at a tiny budget);
``hint``
    when the seat is to act: :func:`commerce.bots.search.search_hint` at a tiny budget, every
    action's estimate;
``encoding``
    the research API's observation vector (:mod:`commerce.encoding`), and the legal-action
    mask when the seat is to act.

Every surface is a field of :class:`Surfaces`, so a test can wrap one with a deliberate leak
and see the harness catch it (``tests/test_no_leak.py``). Written only against the engine API
and the family contract: a new family is checked by registering it.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from commerce import engine
from commerce.bots import make_bot
from commerce.bots.search import search_hint
from commerce.core import Action, Event, Seat, Transition
from commerce.encoding import legal_mask
from commerce.family import FamilySpec, family_spec
from commerce.rules import Ruleset
from tests.harness import random_game

SURFACES = ("observe", "json", "render", "table", "event_text", "legal", "events",
            "heuristic", "search", "hint", "encoding", "server")
"""Every surface the harness compares, in report order."""

EXEMPT = {
    "pettingzoo state()": "commerce.rl.aec.CommerceAEC.state: privileged by design, every "
                          "seat's observation at once for centralised critics, never a seat's "
                          "input (docs/research.md)",
}
"""The surfaces of the research API that may show a seat what it cannot know, each named with
why: the one is PettingZoo's ``state()``; ``tests/test_rl_pettingzoo.py`` checks that it does
show hidden cards and that every seat's ``observe`` does not."""

SEARCH_BUDGET = 8
"""Playouts per decision for the search bot and the hint (tiny: the harness compares choices,
not their quality)."""


def _names(players: int) -> list[str]:
    return [f"seat {i}" for i in range(players)]


def _observation(state: Any, seat: Seat) -> Any:
    return engine.observe(state, seat)


def _json(_state: Any, obs: Any) -> str | None:
    to_dict = getattr(obs, "to_dict", None)
    return None if to_dict is None else json.dumps(to_dict(), sort_keys=True, default=repr)


def _render(spec: FamilySpec[Any, Any], _state: Any, obs: Any, names: Sequence[str]) -> str:
    return spec.render(obs, names)


def _table(spec: FamilySpec[Any, Any], _state: Any, obs: Any, names: Sequence[str]) -> str:
    """The full-screen table's data (:class:`commerce.presentation.TableView`) as text."""
    present = spec.presentation
    if present is None or present.table is None:
        return ""
    return repr(present.table(obs, names))


def _event_text(spec: FamilySpec[Any, Any], _state: Any, events: Sequence[Event],
                names: Sequence[str], seat: Seat) -> tuple[str | None, ...]:
    return tuple(spec.describe_event(e, names, seat) for e in events)


def _legal(spec: FamilySpec[Any, Any], state: Any, obs: Any) -> tuple[str, ...]:
    legal = engine.legal_actions(state)
    out = [engine.format_action(state, a) for a in legal]
    if spec.action_label is not None:
        out += [spec.action_label(a, obs) for a in legal]
    return tuple(out)


def _encoding(spec: FamilySpec[Any, Any], state: Any, obs: Any) -> tuple[float, ...]:
    """The research API's vector of the observation (:mod:`commerce.encoding`), then the
    legal-action mask where the seat acts."""
    enc = spec.encoding
    assert enc is not None, f"the {spec.name} family has no encoding"
    vector = tuple(enc.encode(obs))
    d = engine.decision(state)
    if d is not None and d.seat is not None and d.seat == obs.seat:
        rules, n = state.ruleset, obs.players
        mask = legal_mask(enc, rules, n, engine.legal_actions(state))
        vector += tuple(float(i) for i, m in enumerate(mask) if m)
    return vector


def _heuristic(state: Any, obs: Any, legal: Sequence[Action], rng: random.Random) -> str:
    return engine.format_action(state, make_bot("heuristic").act(obs, legal, rng))


def _search(state: Any, obs: Any, legal: Sequence[Action], rng: random.Random) -> str:
    bot = make_bot(f"search:iterations={SEARCH_BUDGET}")
    return engine.format_action(state, bot.act(obs, legal, rng))


def _hint(state: Any, obs: Any, legal: Sequence[Action], rng: random.Random) -> str:
    hint = search_hint(obs, legal, rng, iterations=SEARCH_BUDGET)
    return repr([(engine.format_action(state, a), tuple(e)) for a, e in hint])


def _server(state: Any, seat: Seat, names: Sequence[str]) -> str:
    """The server's view message for *seat* (``commerce.server.tables.seat_view``), as the
    JSON text it sends, of the state's log of events."""
    from commerce.server.tables import Seat as TableSeat
    from commerce.server.tables import seat_view

    seats = [TableSeat("human", f"p{k}", name) for k, name in enumerate(names)]
    return seat_view(state, getattr(state, "log", ()), seat, names, seats, version=0,
                     over=False).model_dump_json(by_alias=True)


def _apply(state: Any, action: Action) -> Transition:
    return engine.apply(state, action)


@dataclass(frozen=True)
class Surfaces:
    """The functions that build what a seat is shown; the self-test wraps one with a leak."""

    observe: Callable[[Any, Seat], Any] = _observation
    """``observe(state, seat)``."""
    json: Callable[[Any, Any], str | None] = _json
    """``json(state, obs)``: the observation's JSON text (None: the family has none)."""
    render: Callable[[FamilySpec[Any, Any], Any, Any, Sequence[str]], str] = _render
    """``render(spec, state, obs, names)``: the observation as terminal text."""
    table: Callable[[FamilySpec[Any, Any], Any, Any, Sequence[str]], str] = _table
    """``table(spec, state, obs, names)``: the full-screen table's view of the observation."""
    event_text: Callable[[FamilySpec[Any, Any], Any, Sequence[Event], Sequence[str], Seat],
                         tuple[str | None, ...]] = _event_text
    """``event_text(spec, state, events, names, seat)``: events in words, for the seat."""
    legal: Callable[[FamilySpec[Any, Any], Any, Any], tuple[str, ...]] = _legal
    """``legal(spec, state, obs)``: the legal actions in notation and as menu entries."""
    apply: Callable[[Any, Action], Transition] = _apply
    """The transition of the next action."""
    heuristic: Callable[[Any, Any, Sequence[Action], random.Random], str] = _heuristic
    """The heuristic bot's choice in notation."""
    search: Callable[[Any, Any, Sequence[Action], random.Random], str] = _search
    """The search bot's choice in notation."""
    hint: Callable[[Any, Any, Sequence[Action], random.Random], str] = _hint
    """The search hint, every action's estimate."""
    encoding: Callable[[FamilySpec[Any, Any], Any, Any], tuple[float, ...]] = _encoding
    """``encoding(spec, state, obs)``: the observation vector and the legal-action mask of
    the research API."""
    server: Callable[[Any, Seat, Sequence[str]], str] = _server
    """``server(state, seat, names)``: the server's view message sent to the seat."""


@dataclass
class Report:
    """What the harness compared for one ruleset, and every difference found."""

    rules: str
    """The ruleset's id."""
    states: int = 0
    """States sampled."""
    checks: Counter[str] = field(default_factory=Counter)
    """Comparisons made, by surface."""
    revealing: int = 0
    """Next actions that showed the seat a relabelled card (not compared)."""
    leaks: dict[str, list[str]] = field(default_factory=dict)
    """Differences found, by surface: a line each (the first few)."""
    errors: Counter[str] = field(default_factory=Counter)
    """Exceptions a surface raised (compared like any output), by surface and message."""

    def leak(self, surface: str, where: str) -> None:
        """Record a difference on *surface*."""
        found = self.leaks.setdefault(surface, [])
        if len(found) < 5:
            found.append(where)
        else:
            found[-1] = f"... and more ({where})"

    def leaking(self) -> list[str]:
        """The surfaces where a difference was found, in report order."""
        return [s for s in SURFACES if s in self.leaks]

    def line(self) -> str:
        """One line: states, comparisons by surface, leaking surfaces."""
        counts = " ".join(f"{s}={self.checks[s]}" for s in SURFACES)
        leaking = ", ".join(self.leaking()) or "none"
        errors = f"; {sum(self.errors.values())} surface errors" if self.errors else ""
        return (f"{self.rules}: {self.states} states, {sum(self.checks.values())} comparisons "
                f"({counts}; {self.revealing} revealing next actions skipped); "
                f"leaks: {leaking}{errors}")


def _ints(value: Any) -> set[int]:
    if isinstance(value, bool):
        return set()
    if isinstance(value, int):
        return {value}
    if isinstance(value, tuple | list):
        return set().union(*(_ints(v) for v in value)) if value else set()
    return set()


def _mentions(events: Sequence[Event], cards: set[int]) -> bool:
    return any(_ints(v) & cards for e in events for _, v in e.data)


class _Checker:
    """Compares one state with its twin for one seat, surface by surface."""

    def __init__(self, rules: Ruleset, players: int, surfaces: Surfaces, report: Report,
                 rng: random.Random) -> None:
        self.spec = family_spec(rules.family)
        assert self.spec.permute_hidden is not None and self.spec.cards_in_play is not None, \
            f"the {rules.family} family must provide permute_hidden and cards_in_play"
        self.permute: Callable[[Any, Seat, random.Random], Any] = self.spec.permute_hidden
        self.places: Callable[[Any], tuple[int, ...]] = self.spec.cards_in_play
        self.names = _names(players)
        self.surfaces = surfaces
        self.report = report
        self.rng = rng

    def same(self, surface: str, a: Any, b: Any, where: str) -> None:
        self.report.checks[surface] += 1
        if a != b:
            self.report.leak(surface, f"{where}: {_short(a)} / twin: {_short(b)}")

    def call(self, surface: str, fn: Callable[..., Any], *args: Any) -> Any:
        """*fn(args)*, or the exception it raised as text (compared like any output)."""
        try:
            return fn(*args)
        except Exception as exc:  # noqa: BLE001 - an error is an output to compare
            text = f"raised {type(exc).__name__}: {exc}"
            self.report.errors[f"{surface}: {text}"] += 1
            return text

    def check(self, state: Any, seat: Seat, where: str) -> None:
        s = self.surfaces
        twin = self.permute(state, seat, self.rng)
        obs, tobs = s.observe(state, seat), s.observe(twin, seat)
        self.same("observe", obs, tobs, where)
        text = s.json(state, obs)
        if text is not None:
            self.same("json", text, s.json(twin, tobs), where)
        self.same("render", self.call("render", s.render, self.spec, state, obs, self.names),
                  self.call("render", s.render, self.spec, twin, tobs, self.names), where)
        self.same("table", self.call("table", s.table, self.spec, state, obs, self.names),
                  self.call("table", s.table, self.spec, twin, tobs, self.names), where)
        logged = [*getattr(obs, "events", ()), *getattr(obs, "last_deal", ()),
                  *getattr(obs, "last_hand", ())]
        tlogged = [*getattr(tobs, "events", ()), *getattr(tobs, "last_deal", ()),
                   *getattr(tobs, "last_hand", ())]
        self.same("event_text",
                  self.call("event_text", s.event_text, self.spec, state, logged, self.names,
                            seat),
                  self.call("event_text", s.event_text, self.spec, twin, tlogged, self.names,
                            seat),
                  where)
        self.same("encoding", self.call("encoding", s.encoding, self.spec, state, obs),
                  self.call("encoding", s.encoding, self.spec, twin, tobs), where)
        self.same("server", self.call("server", s.server, state, seat, self.names),
                  self.call("server", s.server, twin, seat, self.names), where)
        d = engine.decision(state)
        if d is None:
            return
        if d.seat == seat:
            self.same("legal", s.legal(self.spec, state, obs), s.legal(self.spec, twin, tobs),
                      where)
            legal, tlegal = engine.legal_actions(state), engine.legal_actions(twin)
            seed = self.rng.getrandbits(32)
            for name, choose in (("heuristic", s.heuristic), ("search", s.search),
                                 ("hint", s.hint)):
                self.same(name, self.call(name, choose, state, obs, legal, random.Random(seed)),
                          self.call(name, choose, twin, tobs, tlegal, random.Random(seed)),
                          where)
        self.next_events(state, twin, seat, where)

    def next_events(self, state: Any, twin: Any, seat: Seat, where: str) -> None:
        """The seat's events of the same next action in the state and in its twin."""
        d = engine.decision(state)
        assert d is not None
        pairs = list(zip(self.places(state), self.places(twin), strict=True))
        pi = dict(pairs)
        moved = {a for a, b in pairs if a != b} | {b for a, b in pairs if a != b}
        if d.seat is None:
            action = engine.sample_chance(state, random.Random(self.rng.getrandbits(32)))
        else:
            legal = engine.legal_actions(state)
            action = legal[self.rng.randrange(len(legal))]
        if d.seat == seat:
            text = engine.format_action(state, action)
            mapped = next((a for a in engine.legal_actions(twin)
                           if engine.format_action(twin, a) == text), None)
        else:
            mapped = replace(action, cards=tuple(pi.get(c, c) for c in action.cards))
        if d.seat is None:
            self.chance_events(state, action, seat, where)
        if mapped is None or not engine.is_legal(twin, mapped):
            return
        after = self.surfaces.apply(state, action)
        mine = engine.visible_events(after.events, seat)
        theirs = engine.visible_events(self.surfaces.apply(twin, mapped).events, seat)
        what = f"{where}, next {engine.format_action(state, action)}"
        if _mentions(mine, moved) or _mentions(theirs, moved):
            # shown a relabelled card: legitimate only if the seat now sees it
            self.report.checks["events"] += 1
            named = _differing(mine, theirs, pi)
            unseen = (named & self.hidden(after.state, seat)
                      - _numbers(self.surfaces.observe(after.state, seat))
                      if named else set())
            if unseen:
                self.report.leak("events", f"{what}: names {sorted(unseen)}, which the seat "
                                           "still cannot see")
            else:
                self.report.revealing += 1
            return
        shown = (mine, self.surfaces.event_text(self.spec, state, mine, self.names, seat),
                 [_json_event(self.spec, e) for e in mine])
        tshown = (theirs, self.surfaces.event_text(self.spec, twin, theirs, self.names, seat),
                  [_json_event(self.spec, e) for e in theirs])
        self.same("events", shown, tshown, what)


    def chance_events(self, state: Any, action: Action, seat: Seat, where: str) -> None:
        """Chance's *action* and the same with the cards relabelled that *seat* still cannot
        see after it (a twin of the next state): the seat sees the same events of both.

        The twin of the state before a deal relabels nothing (the pack is all hidden, kept in
        card order); only the next state's twin tells which of the cards dealt the seat may
        be shown (its own hand) and which not (others' hands; a blind dealer's own)."""
        after = self.surfaces.apply(state, action)
        if engine.decision(after.state) is None:
            return
        twin = self.permute(after.state, seat, self.rng)
        pi = dict(zip(self.places(after.state), self.places(twin), strict=True))
        mapped = replace(action, cards=tuple(pi.get(c, c) for c in action.cards))
        if mapped == action or not engine.is_legal(state, mapped):
            return
        mine = engine.visible_events(after.events, seat)
        twin_after = self.surfaces.apply(state, mapped)
        theirs = engine.visible_events(twin_after.events, seat)
        what = f"{where}, next {engine.format_action(state, action)} (chance)"
        moved = {a for a, b in pi.items() if a != b} | {b for a, b in pi.items() if a != b}
        if _mentions(mine, moved) or _mentions(theirs, moved):
            # a public consequence of the hidden cards dealt (Vingt-un's natural completed by
            # the deal shows its two cards): legitimate only where each deal's events name
            # cards that the seat's view after that deal shows
            self.report.checks["events"] += 1
            unseen = set()
            for events, result in ((mine, after), (theirs, twin_after)):
                named = {c for e in events for _, v in e.data for c in _ints(v)} & moved
                if engine.decision(result.state) is not None:
                    unseen |= named - _numbers(self.surfaces.observe(result.state, seat))
            if unseen:
                self.report.leak("events", f"{what}: names {sorted(unseen)}, which the seat "
                                           "still cannot see")
            else:
                self.report.revealing += 1
            return
        shown = (mine, self.surfaces.event_text(self.spec, state, mine, self.names, seat),
                 [_json_event(self.spec, e) for e in mine])
        tshown = (theirs, self.surfaces.event_text(self.spec, state, theirs, self.names, seat),
                  [_json_event(self.spec, e) for e in theirs])
        self.same("events", shown, tshown, what)

    def hidden(self, state: Any, seat: Seat) -> set[int]:
        """The cards *seat* cannot see in *state*: those ``permute_hidden`` relabels (in any
        of a few draws; a hidden card stays put in all of them only by a rare chance)."""
        if engine.decision(state) is None:
            return set()
        out: set[int] = set()
        places = self.places(state)
        for _ in range(4):
            twin = self.permute(state, seat, self.rng)
            out |= {a for a, b in zip(places, self.places(twin), strict=True) if a != b}
        return out


def _numbers(value: Any) -> set[int]:
    """Every whole number in an observation (its fields, tuples, events' details ..., not its
    ruleset's options): the cards it may show, and more (seats, counts); a card named in it
    counts as shown."""
    if isinstance(value, bool | Ruleset) or value is None:
        return set()
    if isinstance(value, int):
        return {value}
    if isinstance(value, str | float):
        return set()
    if isinstance(value, dict):
        return _numbers(tuple(value.values()))
    if isinstance(value, tuple | list | frozenset | set):
        return set().union(*(_numbers(v) for v in value)) if value else set()
    fields = getattr(value, "__dataclass_fields__", None)
    if fields is not None:
        return _numbers(tuple(getattr(value, f) for f in fields))
    return set()


def _differing(mine: Sequence[Event], theirs: Sequence[Event],
               pi: dict[int, int]) -> set[int] | None:
    """The numbers in *mine* that the relabelling *pi* turned into those in the same place of
    *theirs* (the cards it changed; a total that differs is no card); None where the two
    differ in shape (other events, other details), which only a card the seat is shown can
    cause."""
    if len(mine) != len(theirs):
        return None
    out: set[int] = set()

    def walk(a: Any, b: Any) -> bool:
        if isinstance(a, tuple | list) and isinstance(b, tuple | list):
            return len(a) == len(b) and all(walk(x, y) for x, y in zip(a, b, strict=True))
        if isinstance(a, int) and isinstance(b, int) and not isinstance(a, bool):
            if a != b and pi.get(a) == b:
                out.add(a)
            return True
        return a == b

    for e, f in zip(mine, theirs, strict=True):
        if (e.kind, e.seat, e.visible_to) != (f.kind, f.seat, f.visible_to):
            return None
        if [k for k, _ in e.data] != [k for k, _ in f.data]:
            return None
        if not walk([v for _, v in e.data], [v for _, v in f.data]):
            return None
    return out


def _json_event(spec: FamilySpec[Any, Any], event: Event) -> str:
    """An event's JSON form where the family has one (``event_to_dict``), else its repr."""
    to_dict = spec.extras.get("event_to_dict")
    if to_dict is None:
        return repr(event)
    return json.dumps(to_dict(event), sort_keys=True, default=repr)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 160 else text[:157] + "..."


def _sample(rules: Ruleset, players: int, seed: int, every: int,
            limit: int) -> tuple[list[tuple[int, Any]], list[Any]]:
    """Every *every*-th state of a random game (step, state), at most *limit* of them; and
    every state of the game up to the last one sampled."""
    sampled: list[tuple[int, Any]] = []
    states: list[Any] = []
    step = 0

    def keep(state: Any) -> None:
        nonlocal step
        if len(sampled) < limit:
            states.append(state)
            if step % every == every - 1:
                sampled.append((step, state))
        step += 1

    random_game(rules, players, seed, keep)
    return sampled, states[:sampled[-1][0] + 1] if sampled else states


def check_ruleset(rules: Ruleset, *, states: int = 40, players: int | None = None,
                  seed: int = 0, surfaces: Surfaces | None = None, every: int = 5,
                  per_game: int = 8) -> Report:
    """Compare every surface for *states* sampled states of random games of *rules* (every
    *every*-th state, at most *per_game* of a game, all seats at each), with each seat's
    twin."""
    if players is None:
        players = min(max(4, rules.min_players), rules.max_players)
    report = Report(rules.id)
    rng = random.Random(seed)
    checker = _Checker(rules, players, surfaces or Surfaces(), report, rng)
    game = 0
    while report.states < states:
        limit = min(per_game, states - report.states)
        sampled, every_state = _sample(rules, players, seed * 1000 + game, every, limit)
        for i, state in sampled:
            report.states += 1
            for seat in range(players):
                checker.check(state, seat, f"game {game} step {i} seat {seat}")
        steps = {i for i, _ in sampled}
        for i, state in enumerate(every_state):
            if i not in steps and engine.decision(state) is not None:
                for seat in range(players):
                    checker.next_events(state, checker.permute(state, seat, rng), seat,
                                        f"game {game} step {i} seat {seat}")
        game += 1
    return report


def with_leak(surfaces: Surfaces, name: str, wrapper: Callable[[Any], Any]) -> Surfaces:
    """*surfaces* with surface *name* replaced by ``wrapper(original)``."""
    return replace(surfaces, **{name: wrapper(getattr(surfaces, name))})


def hidden_bit(state: Any) -> str:
    """One bit of what is hidden in *state* (a parity over where every card lies): what a
    deliberate leak shows, for the harness's self-test."""
    cards = family_spec(state.ruleset.family).cards_in_play
    assert cards is not None
    return "odd" if sum(i * c for i, c in enumerate(cards(state))) % 2 else "even"


# -- generators -------------------------------------------------------------------------------
# A bot (or an agent, or an environment's opponent) is handed a generator of its own. What it
# holds must not give away the game's seed, another seat's stream or the deal: the attacker
# below knows every public derivation and reads the generator's state as a bot can
# (``rng.getstate()``) before drawing from it.

_M32 = 0xFFFFFFFF
_N = 624


def seed_of(state: tuple[Any, ...]) -> int | None:
    """The whole number that seeded a fresh :class:`random.Random` whose state is *state*
    (``random.Random(n)``, n of at most 8 words), by inverting Python's Mersenne Twister
    seeding (``init_by_array``); None where no such number fits."""
    words = state[1]
    if words[-1] != _N:
        return None  # drawn from already: not the attack of a bot's first move
    final = words[:_N]
    init = [19650218]
    for i in range(1, _N):
        prev = init[i - 1]
        init.append((1812433253 * (prev ^ (prev >> 30)) + i) & _M32)

    def g(x: int) -> int:
        return ((x ^ (x >> 30)) * 1566083941) & _M32

    def h(x: int) -> int:
        return ((x ^ (x >> 30)) * 1664525) & _M32

    after_first = [0] * _N  # the array after init_by_array's first loop
    after_first[1] = ((final[1] + 1) & _M32) ^ g(final[_N - 1])
    after_first[2] = ((final[2] + 2) & _M32) ^ g(after_first[1])
    for i in range(3, _N):
        after_first[i] = ((final[i] + i) & _M32) ^ g(final[i - 1])
    for length in range(1, 9):
        key = [0] * length
        for i in range(3, 3 + length):
            j = (i - 1) % length
            key[j] = (after_first[i] - (init[i] ^ h(after_first[i - 1])) - j) & _M32
        n = sum(w << (32 * k) for k, w in enumerate(key))
        if random.Random(n).getstate() == state:
            return n
    return None


def _unmix64(z: int) -> int:
    """The inverse of SplitMix64's finaliser (xor-shifts and odd multipliers)."""
    def unshift(y: int, s: int) -> int:
        x = y
        for _ in range(64 // s + 1):
            x = y ^ (x >> s)
        return x & (1 << 64) - 1

    z = unshift(z, 31)
    z = (z * pow(0x94D049BB133111EB, -1, 1 << 64)) & (1 << 64) - 1
    z = unshift(z, 27)
    z = (z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & (1 << 64) - 1
    return unshift(z, 30)


def seed_guesses(recovered: int, seat: Seat) -> list[int]:
    """Game seeds an attacker tries once it holds the number that seeded *seat*'s generator:
    that number itself, and the seed the SplitMix64 stream derivation would invert to."""
    z = _unmix64(recovered & (1 << 64) - 1)
    guesses = [recovered]
    for stream in range(4):
        base = (z - stream * 0xBF58476D1CE4E5B9 - seat - 1) & (1 << 64) - 1
        guesses.append((base * pow(0x9E3779B97F4A7C15, -1, 1 << 64)) & (1 << 64) - 1)
    return guesses


def generator_leaks(rules: Ruleset, players: int, seed: int) -> list[str]:
    """What seat 0's generator, read at its first move, gives away in a seeded game of
    *rules*: a line for each of another seat's generator and the first deal's that the
    attacker predicts (empty: nothing)."""
    from commerce.driver import Driver

    captured: list[tuple[Any, ...]] = []

    class Spy:
        name = "spy"

        def act(self, obs: Any, legal: Sequence[Action], rng: random.Random) -> Action:
            if not captured:
                captured.append(rng.getstate())
            return legal[0]

    bots: list[Any] = [Spy(), *[make_bot("random") for _ in range(players - 1)]]
    driver = Driver(rules, bots, seed=seed)
    others = [driver.seat_rngs[k].getstate() for k in range(1, players)]
    deal = Driver(rules, [make_bot("random")] * players, seed=seed).chance_rng.getstate()
    driver.run()
    if not captured:
        return []
    found = seed_of(captured[0])
    if found is None:
        return []
    leaks = []
    for guess in seed_guesses(found, 0):
        twin = Driver(rules, [make_bot("random")] * players, seed=guess)
        if twin.chance_rng.getstate() == deal:
            leaks.append(f"seed {seed}: seat 0's generator gives away the deal")
        for k, state in enumerate(others, start=1):
            if twin.seat_rngs[k].getstate() == state:
                leaks.append(f"seed {seed}: seat 0's generator gives away seat {k}'s")
    return leaks


# -- answer times -----------------------------------------------------------------------------
# Where others watch the clock (the terminal table's pace, the server), a seat's answer to an
# offer must take the same time whether or not it could take the card. The table shows each
# computer player's move a pace after the one before, the time it took to choose inside the
# pause (``commerce.cli.table.app``); that hides the choosing only while it is shorter than
# the pause. The harness measures the processor time of every answer to an offer, by whether
# the seat could act (more than one legal action) or only decline.

OFFER_KINDS = frozenset({"buy_offer", "pounce_offer", "horse_offer"})
"""The decisions that answer an offer another seat's move opened."""


def answer_times(rules: Ruleset, bot: str, *, players: int, games: int,
                 seed: int = 0) -> dict[bool, list[float]]:
    """Seconds of processor time *bot* took to answer each offer in *games* seeded games of
    *rules* (every seat played by *bot*), by whether it could take the card."""
    import time

    from commerce.driver import Driver

    out: dict[bool, list[float]] = {True: [], False: []}
    for game in range(games):
        driver = Driver(rules, [make_bot(bot) for _ in range(players)], seed=seed + game)
        while True:
            d = driver.decision()
            if d is None:
                break
            if d.seat is None or d.kind.value not in OFFER_KINDS:
                driver.step()
                continue
            could = len(engine.legal_actions(driver.state)) > 1
            start = time.process_time()
            driver.step()
            out[could].append(time.process_time() - start)
    return out


def check_views(rules: Ruleset, views: Callable[[Any, Seat], Any], *, public: bool,
                surface: str, states: int = 12, players: int | None = None, seed: int = 0,
                every: int = 5, per_game: int = 4) -> Report:
    """Compare one more surface, *views* (``views(state, seat)``: what a research API shows
    the seat, such as an OpenSpiel observer's tensor and string), for *states* sampled states
    of random games of *rules*, reported under *surface*.

    A seat's view (*public* False) must be the same in the state and in the seat's twin
    (everything it cannot know relabelled). A public view (*public* True: what every seat
    sees) must be the same for every seat in every seat's twin, so it holds no seat's own
    cards either."""
    if players is None:
        players = min(max(4, rules.min_players), rules.max_players)
    spec = family_spec(rules.family)
    permute = spec.permute_hidden
    assert permute is not None, f"the {rules.family} family must provide permute_hidden"
    report = Report(rules.id)
    rng = random.Random(seed)
    game = 0
    while report.states < states:
        limit = min(per_game, states - report.states)
        sampled, _ = _sample(rules, players, seed * 1000 + game, every, limit)
        for i, state in sampled:
            report.states += 1
            for hidden_from in range(players):
                twin = permute(state, hidden_from, rng)
                seats = range(players) if public else (hidden_from,)
                for seat in seats:
                    report.checks[surface] += 1
                    mine, theirs = views(state, seat), views(twin, seat)
                    if mine != theirs:
                        report.leak(surface, f"game {game} step {i} seat {seat}, relabelled "
                                             f"for seat {hidden_from}: {_short(mine)} / twin: "
                                             f"{_short(theirs)}")
        game += 1
    return report


# -- the server out of turn ------------------------------------------------------------------------
@dataclass
class OfferReport:
    """What :func:`check_offers` saw: offers met, and every message that differed."""

    offers: int = 0
    checked: int = 0
    leaks: list[str] = field(default_factory=list)


def offer_rulesets() -> list[Ruleset]:
    """Every preset ruleset whose game can put an offer to one seat alone."""
    from commerce.rules import rulesets
    from commerce.server.tables import Table, TableConfig

    out = []
    for rules in rulesets():
        table = Table.new("t", "i", "h", TableConfig(rules.id, {}, rules.min_players))
        if table.hides_offers():
            out.append(rules)
    return out


def check_offers(rules: Ruleset, *, games: int = 3, players: int | None = None,
                 seed: int = 0, window: float = 0.6, per_game: int = 4,
                 sample: float = 0.5) -> OfferReport:
    """Play games of *rules* at a server table (``commerce.server.tables.Table``, every seat a
    person, with turn timers and an offer window; moves by the heuristic bot, offers taken or
    not at random) and, at up to *per_game* pending hidden offers a game, compare what every
    seat not offered (and a spectator) is sent with what it would be sent with no offer made:
    the table rewound to its last public change (where a seat's own hidden choice opened the
    offers, as Cox's turn player's draw; that seat is not compared), else the offers declined
    (a Pounce opened by a public exchange). Compared: the view (buttons and version
    included), the refusal of an action the seat may not make now, the turn timer; and the
    seat to act may act, its action held and then played as it would be with no offer.
    *sample*: the chance that a pending offer is compared."""
    from commerce.server.tables import HIDDEN_OFFERS, Table, TableConfig, TableError, _decline

    n = players or rules.min_players + (1 if rules.max_players > rules.min_players else 0)
    report = OfferReport()
    bot = make_bot("heuristic")

    def new_table(game: int) -> Any:
        table = Table.new("t", "i", "p0", TableConfig(rules.id, {}, n, turn_timer_s=60.0,
                                                      offer_window_s=window))
        for k in range(n):
            table.join(f"p{k}", f"P{k}", k)
        table.start("p0", f"g{game}", seed=seed * 1000 + game, advance=False)
        assert table.holds()
        return table

    def replayed(game: int, moves: Sequence[tuple[int | None, Action]]) -> Any:
        twin = new_table(game)
        for who, action in moves:
            if who is None:
                twin.driver.step()
            else:
                twin.driver.act(who, action)
        return twin

    for game in range(games):
        table = new_table(game)
        driver = table.driver
        rng = random.Random(seed * 1000 + game)
        moves: list[tuple[int | None, Action]] = []
        public_at, hidden_by = 0, set()
        compared = 0
        while (d := driver.decision()) is not None:
            if d.kind in HIDDEN_OFFERS and compared < per_game and rng.random() < sample:
                compared += 1
                # the offer was opened by the public move a moment ago, at 10 s
                table.offers_at = table.last_public_at = table.last_seat_at = 10.0
                if hidden_by:
                    twin, skip = replayed(game, moves[:public_at]), set(hidden_by)
                else:
                    twin, skip = copy.deepcopy(table), set()
                    while twin.offer_pending():
                        twin.driver.act(twin.driver.decision().seat,
                                        _decline(twin.driver.state))
                _compare_offer(table, twin, skip, report, rng, 10.0 + window / 4,
                               copy.deepcopy, TableError)
            before = len(driver.events)
            if d.seat is None:
                driver.step()
                moves.append((None, driver._actions[-1]))
            else:
                legal = engine.legal_actions(driver.state)
                action = rng.choice(legal) if d.kind in HIDDEN_OFFERS else bot.act(
                    engine.observe(driver.state, d.seat), legal, rng)
                driver.act(d.seat, action)
                moves.append((d.seat, action))
            if any(e.visible_to is None for e in driver.events[before:]):
                public_at, hidden_by = len(moves), set()
            elif d.seat is not None and d.kind not in HIDDEN_OFFERS:
                hidden_by.add(d.seat)
    return report


def _compare_offer(table: Any, twin: Any, skip: set[int], report: OfferReport,
                   rng: random.Random, now: float, copy: Callable[[Any], Any],
                   refused: type[Exception]) -> None:
    driver = table.driver
    report.offers += 1
    holders = {h for h, _, _ in table._chain()[0]}
    where = f"{driver.rules.id} game at action {len(driver.actions)}"
    n = len(table.seats)
    for seat in [None, *(k for k in range(n) if k not in holders | skip)]:
        report.checked += 1
        a = table.view(seat).model_dump_json()
        b = twin.view(seat).model_dump_json()
        if a != b:
            report.leaks.append(f"{where}: the view of seat {seat} shows an offer is pending:"
                                f" {_diff(a, b)}")
        if seat is None:
            continue
        for notation in ("pass", "draw", "decline", "knock"):
            words = []
            for t in (table, twin):
                try:
                    copy(t).act(f"p{seat}", notation, t.public_version, now=now)
                    words.append("accepted")
                except refused as exc:
                    words.append(str(exc))
            if words[0] != words[1]:
                report.leaks.append(f"{where}: seat {seat}'s {notation!r} is answered "
                                    f"{words[0]!r} with an offer pending, {words[1]!r} without")
    if not skip and table.timer_for() != twin.timer_for():
        report.leaks.append(f"{where}: the turn timer runs for {table.timer_for()} with an "
                            f"offer pending, {twin.timer_for()} without")
    # the seat to act acts now: held, then played once the offers lapse
    actor = twin.driver.decision()
    if skip or actor is None or actor.seat is None or actor.seat in holders:
        return
    buttons = [a.notation for a in table.view(actor.seat).actions]
    if buttons != [a.notation for a in twin.view(actor.seat).actions]:
        report.leaks.append(f"{where}: the buttons of seat {actor.seat} differ")
    elif buttons:
        pick = rng.choice(buttons)
        played, alone = copy(table), copy(twin)
        for t in (played, alone):  # made within the window: held, offer or none
            t.act(f"p{actor.seat}", pick, t.public_version, now=now)
            assert actor.seat in t.held, "the action was not held"
        for k in holders:  # every offer lapses
            played.held.pop(k, None)
        due = played.next_due(now), alone.next_due(now)
        if due[0] != due[1]:
            report.leaks.append(f"{where}: seat {actor.seat}'s move is due at {due[0]} with "
                                f"an offer pending, {due[1]} without")
        for t, at in zip((played, alone), due, strict=True):
            t.tick(at or now)
        if played.public_version != alone.public_version or \
                played.driver.actions[-1] != alone.driver.actions[-1]:
            report.leaks.append(f"{where}: seat {actor.seat}'s held {pick!r} was not "
                                f"played as it would be with no offer")


def _diff(a: str, b: str) -> str:
    i = next((k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a),
                                                                                  len(b)))
    return f"...{a[max(0, i - 60):i + 80]!r} / ...{b[max(0, i - 60):i + 80]!r}"
