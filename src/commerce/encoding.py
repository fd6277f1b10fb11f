"""Encodings for learning agents: a fixed action space and a fixed-length observation vector.

A family that supports the research API (:mod:`commerce.rl`) gives an :class:`Encoding` in its
:class:`~commerce.family.FamilySpec` (``encoding``). For a ruleset and a number of players it
fixes

* an **action space**: every action a seat could ever take gets a stable integer below
  ``num_actions(rules, players)`` (:attr:`Encoding.action_to_int`); the legal actions of a
  decision give a mask over that space (:func:`legal_mask`), and an integer picked from the
  mask gives the action back (:func:`int_to_action`);
* an **observation vector** of ``observation_size(rules, players)`` numbers, read only from what
  the seat may know (``engine.observe(state, seat)``: the observation already holds the seat's
  visible events, from which a short history of the last K acts is kept); its layout is a
  list of named :class:`Segment` s, documented in ``docs/research.md``.

This module is pure Python (lists of floats): :mod:`commerce.rl` turns the vectors into
``numpy.float32`` arrays.

>>> import commerce
>>> from commerce.family import family_spec
>>> from commerce.rules import find_ruleset
>>> peel = find_ruleset("peel")
>>> enc = family_spec("trading").encoding
>>> enc.num_actions(peel, 4)
158
>>> observation_size(enc, peel, 4) == sum(s.size for s in enc.layout(peel, 4))
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from commerce.core import Action, DecisionKind, Event, Seat
from commerce.rules import Ruleset

__all__ = [
    "DECISION_KINDS",
    "Encoding",
    "Features",
    "Segment",
    "decode",
    "int_to_action",
    "legal_mask",
    "observation_size",
]


class Segment(NamedTuple):
    """One named stretch of an observation vector."""

    name: str
    """The segment's name, e.g. ``hand``."""
    size: int
    """How many numbers it takes."""
    doc: str
    """What the numbers mean (for ``docs/research.md``)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Encoding:
    """A family's encoding hooks (see the module's docstring)."""

    num_actions: Callable[[Ruleset, int], int]
    """``num_actions(rules, players)``: the size of the action space."""
    action_to_int: Callable[[Ruleset, int, Action], int]
    """``action_to_int(rules, players, action)``: the action's stable integer; the same
    integer for the same action in every state."""
    layout: Callable[[Ruleset, int], tuple[Segment, ...]]
    """``layout(rules, players)``: the observation's segments, in order."""
    encode: Callable[[Any], list[float]]
    """``encode(obs)``: the seat's observation as numbers, laid out as :attr:`layout` says."""
    history: int
    """K: how many of the seat's most recent visible acts the ``history`` segment keeps."""
    chance_outcomes: int
    """A bound on the chance actions' integers (each a ``deal`` of one card: the card)."""
    chance_weights: Callable[[Any, Sequence[Action]], Sequence[float]] | None = None
    """``chance_weights(state, legal)``: the relative odds of each chance action listed for a
    reference state, as ``sample_chance`` draws them; None: all alike."""


DECISION_KINDS: tuple[DecisionKind, ...] = tuple(DecisionKind)
"""Decision kinds in the order of the ``phase`` one-hot segments (then "game over")."""


def observation_size(encoding: Encoding, rules: Ruleset, players: int) -> int:
    """The length of every observation vector of *rules* with *players* seats."""
    return sum(s.size for s in encoding.layout(rules, players))


def segment_offsets(layout: Sequence[Segment]) -> tuple[dict[str, int], int]:
    """Where each segment of *layout* begins in the observation vector, and its length.

    >>> segment_offsets((Segment("a", 2, ""), Segment("b", 3, "")))
    ({'a': 0, 'b': 2}, 5)
    """
    at, offsets = 0, {}
    for seg in layout:
        offsets[seg.name] = at
        at += seg.size
    return offsets, at


def legal_mask(encoding: Encoding, rules: Ruleset, players: int,
               legal: Iterable[Action]) -> list[bool]:
    """Which integers of the action space are legal now (*legal*: the legal actions)."""
    mask = [False] * encoding.num_actions(rules, players)
    for action in legal:
        mask[encoding.action_to_int(rules, players, action)] = True
    return mask


def int_to_action(encoding: Encoding, rules: Ruleset, players: int, index: int,
                  legal: Sequence[Action]) -> Action | None:
    """The legal action whose integer is *index*, or None if no legal action has it."""
    for action in legal:
        if encoding.action_to_int(rules, players, action) == index:
            return action
    return None


def decode(encoding: Encoding, rules: Ruleset, players: int,
           vector: Sequence[float]) -> dict[str, list[float]]:
    """The vector split into its named segments (what a test reads back)."""
    out: dict[str, list[float]] = {}
    at = 0
    for seg in encoding.layout(rules, players):
        out[seg.name] = list(vector[at:at + seg.size])
        at += seg.size
    if at != len(vector):
        raise ValueError(f"the vector has {len(vector)} numbers, the layout {at}")
    return out


class Features:
    """Writes an observation vector segment by segment, checked against a layout.

    >>> f = Features((Segment("a", 2, ""), Segment("b", 3, "")))
    >>> f.put("a", [1.0, 0.5])
    >>> f.one_hot("b", 2)
    >>> f.done()
    [1.0, 0.5, 0.0, 0.0, 1.0]
    """

    __slots__ = ("_at", "_layout", "values")

    def __init__(self, layout: Sequence[Segment]) -> None:
        self._layout = layout
        self._at = 0
        self.values: list[float] = []

    def _next(self, name: str) -> int:
        seg = self._layout[self._at]
        if seg.name != name:
            raise ValueError(f"segment {name!r} written where {seg.name!r} belongs")
        self._at += 1
        return seg.size

    def put(self, name: str, values: Sequence[float]) -> None:
        """Segment *name* is *values* (exactly its size)."""
        size = self._next(name)
        if len(values) != size:
            raise ValueError(f"segment {name!r} takes {size} numbers, not {len(values)}")
        self.values.extend(values)

    def one_hot(self, name: str, index: int | None) -> None:
        """Segment *name* is 1 at *index*, 0 elsewhere (all 0 for None)."""
        size = self._next(name)
        row = [0.0] * size
        if index is not None:
            row[index] = 1.0
        self.values.extend(row)

    def bits(self, name: str, indices: Iterable[int], value: float = 1.0) -> None:
        """Segment *name* is *value* at each of *indices* (added up), 0 elsewhere."""
        size = self._next(name)
        row = [0.0] * size
        for i in indices:
            row[i] += value
        self.values.extend(row)

    def done(self) -> list[float]:
        """The vector, once every segment is written."""
        if self._at != len(self._layout):
            raise ValueError(f"segment {self._layout[self._at].name!r} was not written")
        return self.values


def relative(seat: Seat | None, me: Seat | None, players: int) -> int | None:
    """*seat*'s place counted from *me* (0: me, 1: the next seat ...); None stays None."""
    if seat is None or me is None:
        return None
    return (seat - me) % players


def history_segments(kinds: Sequence[str], players: int, cards: int, k: int,
                     cards_doc: str = "") -> tuple[Segment, ...]:
    """The ``history`` segment of the last *k* acts: per act, the kind among *kinds*, who
    acted (relative, one-hot) and the cards it showed (*cards* slots, *cards_doc*)."""
    per = len(kinds) + players + cards
    return (Segment("history", k * per,
                    f"the last {k} acts the seat saw, newest first, {per} numbers each: the "
                    f"kind one-hot ({', '.join(kinds)}), who acted ({players}, relative to "
                    f"the seat), and the cards it showed to the seat ({cards}{cards_doc})"),)


def write_history(f: Features, events: Sequence[Event], kinds: Sequence[str],
                  me: Seat | None, players: int, cards: int, k: int,
                  card_slots: Callable[[Event], Iterable[int]]) -> None:
    """Write the ``history`` segment from the seat's visible *events* (newest first)."""
    index = {kind: i for i, kind in enumerate(kinds)}
    per = len(kinds) + players + cards
    row = [0.0] * (k * per)
    slot = 0
    for e in reversed(events):
        if slot == k:
            break
        i = index.get(e.kind)
        if i is None:
            continue
        base = slot * per
        row[base + i] = 1.0
        who = relative(e.seat, me, players)
        if who is not None:
            row[base + len(kinds) + who] = 1.0
        for c in card_slots(e):
            row[base + len(kinds) + players + c] = 1.0
        slot += 1
    f.put("history", row)
