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
    """Writes an observation vector segment by segment, each where the layout places it.

    A segment is named, never placed by its writer: the layout alone says where it goes and
    how long it is, so a layout edited (segments reordered, resized) moves what every writer
    writes, here and in the compiled encoders, which read the same offsets
    (:func:`segment_offsets`). Each segment is written once, in any order; :meth:`done`
    refuses a vector with one missing.

    >>> f = Features((Segment("a", 2, ""), Segment("b", 3, "")))
    >>> f.one_hot("b", 2)
    >>> f.put("a", [1.0, 0.5])
    >>> f.done()
    [1.0, 0.5, 0.0, 0.0, 1.0]
    """

    __slots__ = ("_layout", "_places", "_written", "values")

    def __init__(self, layout: Sequence[Segment]) -> None:
        self._layout = layout
        self._places: dict[str, tuple[int, int]] = {}
        at = 0
        for seg in layout:
            self._places[seg.name] = (at, seg.size)
            at += seg.size
        self._written: set[str] = set()
        self.values: list[float] = [0.0] * at

    def _place(self, name: str) -> tuple[int, int]:
        place = self._places.get(name)
        if place is None:
            raise ValueError(f"segment {name!r} is not in the layout")
        if name in self._written:
            raise ValueError(f"segment {name!r} written twice")
        self._written.add(name)
        return place

    def put(self, name: str, values: Sequence[float]) -> None:
        """Segment *name* is *values* (exactly its size)."""
        at, size = self._place(name)
        if len(values) != size:
            raise ValueError(f"segment {name!r} takes {size} numbers, not {len(values)}")
        self.values[at:at + size] = values

    def one_hot(self, name: str, index: int | None) -> None:
        """Segment *name* is 1 at *index*, 0 elsewhere (all 0 for None)."""
        at, size = self._place(name)
        if index is not None:
            self.values[at + _inside(name, index, size)] = 1.0

    def bits(self, name: str, indices: Iterable[int], value: float = 1.0) -> None:
        """Segment *name* is *value* at each of *indices* (added up), 0 elsewhere."""
        at, size = self._place(name)
        for i in indices:
            self.values[at + _inside(name, i, size)] += value

    def done(self) -> list[float]:
        """The vector, once every segment is written."""
        for seg in self._layout:
            if seg.name not in self._written:
                raise ValueError(f"segment {seg.name!r} was not written")
        return self.values


def _inside(name: str, index: int, size: int) -> int:
    if not 0 <= index < size:
        raise ValueError(f"segment {name!r} has {size} places, not a place {index}")
    return index


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
