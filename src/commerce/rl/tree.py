"""The whole game tree of one deal as arrays, for exact equilibrium and exploitability.

Tree algorithms (counterfactual regret minimisation, best responses) visit every history of a
game on every iteration. Through OpenSpiel's Python API each visit clones a Python state; the
research variant ``trade-and-barter-mini`` deals its six cards one at a time there, some
665,280 ordered deals of about 900 histories each, out of reach. Here the tree of one deal is
walked once, by the engine, and kept as flat arrays that :mod:`commerce.rl.cfr` sweeps at
compiled speed:

- the deal is one chance node whose outcomes are the *sets* of cards each place receives
  (each hand, the widow), every one equally likely: a uniformly shuffled pack gives every
  assignment of cards to places the same chance, and the order in which a place's cards
  arrive tells no one anything, so it is fixed (ascending) instead of enumerated;
- every later chance node (a card drawn from the stock) keeps its outcomes;
- a seat's information state is what it has seen: the events of the deal visible to it, in
  order (``engine.visible_events``), from which ``engine.observe`` builds its observation;
  two histories are in one information state exactly when the seat saw the same events;
- a deal ends where the family's deal reader (``FamilySpec.deal_reader``) finds it settled;
  its leaves hold what the deal paid each seat.

Nodes are numbered in depth-first order (a parent before its children, children in the order
of the legal actions), which is all the sweeps need. :func:`walk_spiel` builds the same arrays
from an OpenSpiel game, so that the algorithms are checked against OpenSpiel's own on its
games (``tests/test_rl_cfr.py``).

>>> from commerce.rules import find_ruleset
>>> tree = build_tree(find_ruleset("trade-and-barter-mini"), 2, deals=3, seed=1)
>>> tree.players, tree.deals, int(tree.kind[0]) == CHANCE, tree.zero_sum()
(2, 3, True, True)
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from math import comb
from typing import Any

import numpy as np

from commerce import engine
from commerce.core import Action, ActionKind, Event
from commerce.errors import CommerceError
from commerce.family import FamilySpec, family_spec
from commerce.rules import Ruleset

__all__ = ["CHANCE", "TERMINAL", "Chooser", "GameTree", "TreeBuilder", "bot_choices",
           "build_tree", "count_deals", "draw_deal", "merge_trees", "observe_for", "play_deal",
           "pure_policy", "state_at", "walk_spiel"]

CHANCE = -1
"""``kind`` of a chance node (a seat's node has the seat's number)."""
TERMINAL = -2
"""``kind`` of a leaf."""


@dataclass
class GameTree:
    """A game tree as arrays, nodes in depth-first order (node 0 the root).

    Per node: ``kind`` (the seat to act, :data:`CHANCE` or :data:`TERMINAL`), ``parent``
    (-1 for the root), ``slot`` (which of its parent's actions led here), ``prob`` (the
    chance of that outcome where the parent is a chance node, else 1), ``depth``,
    ``infoset`` (the information state of a seat's node, else -1) and ``payoff`` (a leaf's
    payoffs, one column per seat). Per information state: ``iset_seat``, ``iset_actions``
    (how many legal actions) and ``iset_offset`` (where its actions start in a flat array
    of all information states' actions), with ``iset_labels`` (its legal actions) and
    ``iset_keys`` (what identifies it).
    """

    players: int
    kind: np.ndarray
    parent: np.ndarray
    slot: np.ndarray
    prob: np.ndarray
    depth: np.ndarray
    infoset: np.ndarray
    payoff: np.ndarray
    iset_seat: np.ndarray
    iset_actions: np.ndarray
    iset_offset: np.ndarray
    iset_labels: list[tuple[Any, ...]] = field(repr=False)
    iset_keys: list[Hashable] = field(repr=False)
    deals: int = 0
    """Outcomes of the root's chance node (the deals), where the tree was built from one."""
    dealt: list[tuple[int, ...]] = field(default_factory=list, repr=False)
    """The deal action of each of the root's outcomes (where the tree was built from one):
    ``dealt[k]`` is the root's child of slot *k*."""

    @property
    def nodes(self) -> int:
        """How many nodes."""
        return int(self.kind.shape[0])

    @property
    def infosets(self) -> int:
        """How many information states (all seats)."""
        return int(self.iset_seat.shape[0])

    @property
    def flat_actions(self) -> int:
        """The length of a flat array of every information state's actions."""
        return int(self.iset_actions.sum())

    def zero_sum(self) -> bool:
        """Whether every leaf's payoffs add up to nothing."""
        leaves = self.kind == TERMINAL
        return bool(np.allclose(self.payoff[leaves].sum(axis=1), 0.0))

    def first_nodes(self) -> np.ndarray:
        """The first node of each information state."""
        seats = np.flatnonzero(self.infoset >= 0)
        _, first = np.unique(self.infoset[seats], return_index=True)
        return seats[first]

    def path(self, node: int) -> list[int]:
        """The slots (action indices) from the root down to *node*."""
        slots = []
        while node > 0:
            slots.append(int(self.slot[node]))
            node = int(self.parent[node])
        return slots[::-1]

    def uniform_policy(self) -> np.ndarray:
        """Every legal action equally likely, as a flat policy array."""
        return np.repeat(1.0 / self.iset_actions, self.iset_actions)

    def policy_from(self, choose: Callable[[int], Sequence[float]]) -> np.ndarray:
        """A flat policy array from ``choose(infoset) -> probabilities of its actions``."""
        out = np.zeros(self.flat_actions)
        for i in range(self.infosets):
            start, n = int(self.iset_offset[i]), int(self.iset_actions[i])
            probs = np.asarray(choose(i), dtype=np.float64)
            if probs.shape != (n,) or not np.isclose(probs.sum(), 1.0):
                raise CommerceError(f"information state {i}: a policy needs {n} "
                                    f"probabilities adding up to 1, not {probs!r}")
            out[start:start + n] = probs
        return out


def _offsets(counts: np.ndarray) -> np.ndarray:
    """Where each information state's actions start in a flat array, from their counts."""
    return np.concatenate(([0], np.cumsum(counts)[:-1])).astype(np.int64)


class TreeBuilder:
    """Collects nodes in depth-first order and information states by key."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.kind, self.parent, self.slot = array("b"), array("i"), array("i")
        self.prob, self.depth, self.infoset = array("d"), array("h"), array("i")
        self.payoff = array("d")
        self.iset_ids: dict[Hashable, int] = {}
        self.iset_seat, self.iset_actions = array("b"), array("h")
        self.iset_labels: list[tuple[Any, ...]] = []
        self.iset_depth = array("h")

    def node(self, kind: int, parent: int, slot: int, prob: float, depth: int) -> int:
        """Add a node; returns its number."""
        self.kind.append(kind)
        self.parent.append(parent)
        self.slot.append(slot)
        self.prob.append(prob)
        self.depth.append(depth)
        self.infoset.append(-1)
        self.payoff.extend((0.0,) * self.players)
        return len(self.kind) - 1

    def seat_node(self, n: int, seat: int, key: Hashable, labels: tuple[Any, ...]) -> None:
        """Node *n* is *seat*'s decision in information state *key* among *labels*."""
        i = self.iset_ids.get(key)
        depth = self.depth[n]
        if i is None:
            i = self.iset_ids[key] = len(self.iset_labels)
            self.iset_seat.append(seat)
            self.iset_actions.append(len(labels))
            self.iset_labels.append(labels)
            self.iset_depth.append(depth)
        elif self.iset_labels[i] != labels or self.iset_depth[i] != depth:
            raise CommerceError("one information state with different legal actions or at "
                                "different depths: the sweeps need perfect recall")
        self.infoset[n] = i

    def leaf(self, n: int, payoffs: Sequence[float]) -> None:
        """Node *n* ends the game with *payoffs*."""
        base = n * self.players
        for seat, value in enumerate(payoffs):
            self.payoff[base + seat] = float(value)

    def finish(self, dealt: Sequence[tuple[int, ...]] = ()) -> GameTree:
        """The arrays."""
        counts = np.frombuffer(self.iset_actions, dtype=np.int16).astype(np.int64)
        keys: list[Hashable] = [None] * len(self.iset_labels)
        for key, i in self.iset_ids.items():
            keys[i] = key
        return GameTree(
            players=self.players,
            kind=np.frombuffer(self.kind, dtype=np.int8).copy(),
            parent=np.frombuffer(self.parent, dtype=np.int32).copy(),
            slot=np.frombuffer(self.slot, dtype=np.int32).copy(),
            prob=np.frombuffer(self.prob, dtype=np.float64).copy(),
            depth=np.frombuffer(self.depth, dtype=np.int16).copy(),
            infoset=np.frombuffer(self.infoset, dtype=np.int32).copy(),
            payoff=np.frombuffer(self.payoff, dtype=np.float64).reshape(-1, self.players).copy(),
            iset_seat=np.frombuffer(self.iset_seat, dtype=np.int8).copy(),
            iset_actions=counts,
            iset_offset=_offsets(counts),
            iset_labels=self.iset_labels,
            iset_keys=keys,
            deals=len(dealt),
            dealt=list(dealt),
        )


# -- the engine's games ------------------------------------------------------------------------


class _Stepper:
    """The engine's steps for one ruleset: the reference engine's, without its dispatch
    (the family's own hooks)."""

    def __init__(self, spec: FamilySpec[Any, Any]) -> None:
        self.reader = spec.deal_reader
        self.new_game: Callable[..., Any] = spec.new_game
        self.decision: Callable[[Any], Any] = spec.decision
        self.legal: Callable[[Any], tuple[Action, ...]] = spec.legal_actions
        self.apply: Callable[[Any, Action], tuple[Any, tuple[Event, ...]]] = spec.apply
        self.observe: Callable[[Any, int], Any] = spec.observe

    def deal(self, rules: Ruleset, players: int, cards: tuple[int, ...]) -> tuple[
            Any, tuple[tuple[Event, ...], ...], tuple[Event, ...]]:
        """A new game (dealer seat 0) dealt *cards*: the state, what each seat has seen of
        the deal, and the public events from the game's start."""
        start = self.new_game(rules, players, 0)
        state, events = self.apply(start, Action(ActionKind.DEAL, cards))
        views = tuple(engine.visible_events(events, seat) for seat in range(players))
        public = (engine.visible_events(_start_events(start, self), None)
                  + engine.visible_events(events, None))
        return state, views, public


def _seen(views: tuple[tuple[Event, ...], ...], public: tuple[Event, ...],
          events: tuple[Event, ...]) -> tuple[tuple[tuple[Event, ...], ...], tuple[Event, ...]]:
    """What each seat has seen, and the public events, once *events* have happened."""
    return (tuple(v + engine.visible_events(events, seat) for seat, v in enumerate(views)),
            public + engine.visible_events(events, None))


@dataclass(frozen=True)
class _DealShape:
    """Where the deal's cards go: the places (each hand, the widow ...) in the order chance
    fills them, and the pack."""

    positions: tuple[int, ...]
    """For the k-th card dealt, the place it goes to."""
    sizes: tuple[int, ...]
    """How many cards each place gets."""
    pack: tuple[int, ...]

    def deals(self) -> Iterator[tuple[int, ...]]:
        """Every assignment of cards to places, as the deal action's cards in order."""
        def fill(place: int, left: tuple[int, ...]) -> Iterator[tuple[tuple[int, ...], ...]]:
            if place == len(self.sizes):
                yield ()
                return
            for chosen in combinations(left, self.sizes[place]):
                rest = tuple(c for c in left if c not in chosen)
                for tail in fill(place + 1, rest):
                    yield (chosen, *tail)

        for groups in fill(0, self.pack):
            yield self.arrange(groups)

    def arrange(self, groups: Sequence[Sequence[int]]) -> tuple[int, ...]:
        """The deal action's cards that give each place its group (ascending)."""
        ordered = [sorted(g) for g in groups]
        taken = [0] * len(self.sizes)
        cards = []
        for place in self.positions:
            cards.append(ordered[place][taken[place]])
            taken[place] += 1
        return tuple(cards)

    def draw(self, rng: random.Random) -> tuple[int, ...]:
        """A deal drawn at random (every assignment equally likely)."""
        pack = list(self.pack)
        rng.shuffle(pack)
        groups, start = [], 0
        for size in self.sizes:
            groups.append(pack[start:start + size])
            start += size
        return self.arrange(groups)

    def count(self) -> int:
        """How many assignments."""
        total, left = 1, len(self.pack)
        for size in self.sizes:
            total *= comb(left, size)
            left -= size
        return total


def _deal_shape(stepper: _Stepper, start: Any, rules: Ruleset, players: int) -> _DealShape:
    """Find where each card of the deal goes from the events of one deal: a card belongs to
    the first event that names it (a seat's ``dealt``, the widow's ...)."""
    action = stepper.legal(start)[0]
    probe = engine.sample_chance(engine.new_game(rules, players, dealer=0), random.Random(0))
    if action.kind is not ActionKind.DEAL or len(probe.cards) < 2:
        raise CommerceError("the deal is not one chance action of several cards")
    _, events = stepper.apply(start, probe)
    places: list[Hashable] = []
    for card in probe.cards:
        event = next((e for e in events if _names(e, card)), None)
        if event is None:
            raise CommerceError(f"no event of the deal names card {card}")
        places.append((event.kind, event.seat, event.visible_to))
    order = list(dict.fromkeys(places))
    positions = tuple(order.index(p) for p in places)
    sizes = tuple(positions.count(i) for i in range(len(order)))
    pack = tuple(sorted(a.cards[0] for a in stepper.legal(start)))
    return _DealShape(positions, sizes, pack)


def _names(event: Event, card: int) -> bool:
    for _, value in event.data:
        if value == card or (isinstance(value, tuple) and card in value):
            return True
    return False


def count_deals(rules: Ruleset, players: int) -> int:
    """How many deals (assignments of cards to places) the root of :func:`build_tree` has."""
    spec = family_spec(rules.family)
    stepper = _Stepper(spec)
    return _deal_shape(stepper, stepper.new_game(rules, players, 0), rules, players).count()


def build_tree(rules: Ruleset, players: int, *, deals: int | None = None, seed: int = 0,
               part: tuple[int, int] = (0, 1)) -> GameTree:
    """The tree of one deal of *rules* (dealer seat 0, a fresh session): every deal, or
    *deals* of them drawn with *seed* (a smaller game, each drawn deal equally likely).

    With ``part=(k, parts)`` only every *parts*-th deal from the *k*-th is walked (each with
    its chance in the whole game): :func:`merge_trees` joins the parts, built in parallel.
    Payoffs are what the deal paid each seat (the family's deal reader). Raises
    :class:`CommerceError` where the family has no deal reader or its deal is not one chance
    action.
    """
    spec = family_spec(rules.family)
    reader = spec.deal_reader
    if reader is None:
        raise CommerceError(f"family {rules.family} has no deal reader")
    stepper = _Stepper(spec)
    start = stepper.new_game(rules, players, 0)
    shape = _deal_shape(stepper, start, rules, players)
    everything = shape.count()
    if deals is None or deals >= everything:
        chosen: Sequence[tuple[int, ...]] = list(shape.deals())
    else:
        rng, drawn = random.Random(seed), set[tuple[int, ...]]()
        while len(drawn) < deals:
            drawn.add(shape.draw(rng))
        chosen = sorted(drawn)
    out = TreeBuilder(players)
    root = out.node(CHANCE, -1, 0, 1.0, 0)
    prob = 1.0 / len(chosen)
    k, parts = part
    for slot in range(k, len(chosen), parts):
        state, views, public = stepper.deal(rules, players, chosen[slot])
        _walk(out, stepper, rules, reader, state, views, public,
              out.node(CHANCE, root, slot, prob, 1), 1)
    return out.finish(chosen)


def _start_events(start: Any, stepper: _Stepper) -> tuple[Event, ...]:
    return tuple(getattr(stepper.observe(start, None), "events", ()))  # type: ignore[arg-type]


def _walk(out: TreeBuilder, stepper: _Stepper, rules: Ruleset, reader: Any, state: Any,
          views: tuple[tuple[Event, ...], ...], public: tuple[Event, ...], n: int,
          depth: int) -> None:
    """Fill node *n* (already added) and its subtree."""
    players = out.players
    found = reader(rules, players, public)
    if found:
        out.kind[n] = TERMINAL
        out.leaf(n, found[0].payoffs)
        return
    d = stepper.decision(state)
    legal = stepper.legal(state)
    if d.seat is None:
        out.kind[n] = CHANCE
        prob = 1.0 / len(legal)
    else:
        out.kind[n] = d.seat
        out.seat_node(n, d.seat, (d.seat, views[d.seat]), legal)
        prob = 1.0
    for slot, action in enumerate(legal):
        child, events = stepper.apply(state, action)
        node = out.node(CHANCE, n, slot, prob, depth + 1)
        _walk(out, stepper, rules, reader, child, *_seen(views, public, events), node,
              depth + 1)


Chooser = Callable[[int, Hashable, Any, tuple[Action, ...]], Action]
"""``choose(seat, key, state, legal) -> action``: a seat's decision in a deal played by
:func:`play_deal`; *key* is the information state's key in :func:`build_tree`'s trees and
*state* the state, whose ``observe(state, seat)`` is all a bot may read."""


def play_deal(rules: Ruleset, players: int, cards: tuple[int, ...], choose: Chooser,
              rng: random.Random) -> tuple[float, ...]:
    """Play the deal of *cards* (from :func:`draw_deal`; dealer seat 0) with *choose*
    deciding every seat's actions and *rng* drawing chance's; returns what the deal paid each
    seat. The seats' keys are the trees', so a tree's policy plays here as it was solved."""
    stepper = _Stepper(family_spec(rules.family))
    reader = stepper.reader
    assert reader is not None
    state, views, public = stepper.deal(rules, players, cards)
    while True:
        found = reader(rules, players, public)
        if found:
            return tuple(float(x) for x in found[0].payoffs)
        d = stepper.decision(state)
        legal = stepper.legal(state)
        if d.seat is None:
            action = legal[rng.randrange(len(legal))]
        else:
            action = choose(d.seat, (d.seat, views[d.seat]), state, legal)
            if action not in legal:
                raise CommerceError(f"seat {d.seat}: {action} is not legal here")
        state, events = stepper.apply(state, action)
        views, public = _seen(views, public, events)


def draw_deal(rules: Ruleset, players: int, rng: random.Random) -> tuple[int, ...]:
    """A deal drawn at random, as the deal action of the trees of :func:`build_tree` (each
    place's cards in ascending order)."""
    stepper = _Stepper(family_spec(rules.family))
    return _deal_shape(stepper, stepper.new_game(rules, players, 0), rules, players).draw(rng)


def state_at(rules: Ruleset, tree: GameTree, node: int) -> Any:
    """The state of *node* of a tree of :func:`build_tree` of *rules*, replayed from
    its deal: for asking a bot what it does there (``observe_for(rules, state, seat)``)."""
    return _replay(_Stepper(family_spec(rules.family)), rules, tree, node)


def _replay(stepper: _Stepper, rules: Ruleset, tree: GameTree, node: int) -> Any:
    path = tree.path(node)
    if not path:
        raise CommerceError("the root is before the deal")
    state = stepper.new_game(rules, tree.players, 0)
    state, _ = stepper.apply(state, Action(ActionKind.DEAL, tree.dealt[path[0]]))
    for slot in path[1:]:
        state, _ = stepper.apply(state, stepper.legal(state)[slot])
    return state


def bot_choices(rules: Ruleset, tree: GameTree, act: Callable[..., Action],
                infosets: Sequence[int] | None = None, seed: int = 0) -> np.ndarray:
    """What a bot (``act(obs, legal, rng)``) does in each of *infosets* (default: all) of a
    tree of :func:`build_tree`: the index of its action among the legal ones (-1 in the
    information states not asked). It is asked once in each, at its first node's state, with
    an RNG of its own seeded from *seed* and the information state's number."""
    stepper = _Stepper(family_spec(rules.family))
    picks = np.full(tree.infosets, -1, dtype=np.int64)
    first = tree.first_nodes()
    for i in range(tree.infosets) if infosets is None else infosets:
        state = _replay(stepper, rules, tree, int(first[i]))
        legal = tree.iset_labels[i]
        obs = stepper.observe(state, int(tree.iset_seat[i]))
        picks[i] = legal.index(act(obs, legal, random.Random(seed * 1_000_003 + i)))
    return picks


def pure_policy(tree: GameTree, picks: np.ndarray) -> np.ndarray:
    """The flat policy that takes action ``picks[i]`` in information state *i*."""
    if picks.shape != (tree.infosets,) or (picks < 0).any() or (
            picks >= tree.iset_actions).any():
        raise CommerceError("a pure policy needs one legal action of every information state")
    policy = np.zeros(tree.flat_actions)
    policy[tree.iset_offset + picks] = 1.0
    return policy


def observe_for(rules: Ruleset, state: Any, seat: int) -> Any:
    """*seat*'s observation of a state of :func:`build_tree` or :func:`play_deal` (equal to
    ``engine.observe`` of the reference state)."""
    return _Stepper(family_spec(rules.family)).observe(state, seat)


def merge_trees(parts: Sequence[GameTree]) -> GameTree:
    """One tree of the parts of :func:`build_tree` (``part=(k, parts)`` for each *k*): their
    roots' children (the deals, each keeping its number as its ``slot``) under one root,
    information states joined by key."""
    first = parts[0]
    ids: dict[Hashable, int] = {}
    keys: list[Hashable] = []
    labels: list[tuple[Any, ...]] = []
    seats: list[int] = []
    pieces = []
    offset = 1
    for p in parts:
        remap = np.empty(p.infosets, dtype=np.int32)
        for i, key in enumerate(p.iset_keys):
            j = ids.get(key)
            if j is None:
                j = ids[key] = len(keys)
                keys.append(key)
                labels.append(p.iset_labels[i])
                seats.append(int(p.iset_seat[i]))
            remap[i] = j
        body = slice(1, p.nodes)
        parent = p.parent[body].astype(np.int64)
        parent = np.where(parent == 0, 0, parent - 1 + offset)
        infoset = p.infoset[body]
        infoset = np.where(infoset >= 0, remap[np.maximum(infoset, 0)], -1)
        pieces.append((p.kind[body], parent, p.slot[body], p.prob[body], p.depth[body],
                       infoset, p.payoff[body]))
        offset += p.nodes - 1
    # the root's children are numbered by their deal: part k holds deals k, k + parts ...
    kind = np.concatenate([np.array([CHANCE], np.int8)] + [x[0] for x in pieces])
    parent = np.concatenate([np.array([-1])] + [x[1] for x in pieces]).astype(np.int32)
    slot = np.concatenate([np.array([0], np.int32)] + [x[2] for x in pieces])
    prob = np.concatenate([np.array([1.0])] + [x[3] for x in pieces])
    depth = np.concatenate([np.array([0], np.int16)] + [x[4] for x in pieces])
    infoset = np.concatenate([np.array([-1], np.int32)] + [x[5] for x in pieces])
    payoff = np.concatenate([np.zeros((1, first.players))] + [x[6] for x in pieces])
    counts = np.array([len(x) for x in labels], dtype=np.int64)
    return GameTree(
        players=first.players, kind=kind, parent=parent, slot=slot, prob=prob, depth=depth,
        infoset=infoset, payoff=payoff, iset_seat=np.array(seats, dtype=np.int8),
        iset_actions=counts,
        iset_offset=_offsets(counts),
        iset_labels=labels, iset_keys=keys, deals=first.deals, dealt=first.dealt)


# -- OpenSpiel's games -------------------------------------------------------------------------


def walk_spiel(game: Any) -> GameTree:
    """The tree of an OpenSpiel game (``pyspiel.load_game(...)``), its information states
    keyed by ``information_state_string``: for checking the sweeps against OpenSpiel's own
    algorithms on its games."""
    players = int(game.num_players())
    out = TreeBuilder(players)

    def walk(state: Any, n: int, depth: int) -> None:
        if state.is_terminal():
            out.kind[n] = TERMINAL
            out.leaf(n, state.returns())
            return
        if state.is_chance_node():
            out.kind[n] = CHANCE
            outcomes = state.chance_outcomes()
            for slot, (action, p) in enumerate(outcomes):
                child = out.node(CHANCE, n, slot, float(p), depth + 1)
                walk(state.child(action), child, depth + 1)
            return
        seat = int(state.current_player())
        legal = tuple(state.legal_actions())
        out.kind[n] = seat
        out.seat_node(n, seat, (seat, state.information_state_string(seat)), legal)
        for slot, action in enumerate(legal):
            child = out.node(CHANCE, n, slot, 1.0, depth + 1)
            walk(state.child(action), child, depth + 1)

    walk(game.new_initial_state(), out.node(CHANCE, -1, 0, 1.0, 0), 0)
    return out.finish()
