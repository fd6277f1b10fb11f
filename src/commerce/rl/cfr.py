"""Counterfactual regret minimisation and best responses over a :class:`GameTree`.

The sweeps are OpenSpiel's tabular algorithms (``open_spiel/python/algorithms/cfr.py``,
``exploitability.py``) run over the arrays of :mod:`commerce.rl.tree` by compiled loops
(numba), one pass down the tree for the reach probabilities and one up for the values:

- :class:`CFRPlus`: CFR+ (Tammelin 2014) as OpenSpiel's ``CFRPlusSolver`` runs it: alternating
  updates, regret matching plus, the average policy weighted by the iteration number (linear
  averaging). On OpenSpiel's games it gives OpenSpiel's numbers to rounding
  (``tests/test_rl_cfr.py``).
- :func:`best_response_value`: what one seat gets with a best response to a policy of the
  others, an exact sweep (the nodes of one information state are decided together, deepest
  first), and :func:`exploitability`: OpenSpiel's ``nash_conv`` divided by the number of
  seats, for a two-seat zero-sum game the mean gain of a best responder over the game's
  value; 0 exactly at an equilibrium.

Policies are flat arrays: the probabilities of every information state's legal actions, in
order, information state by information state (``GameTree.iset_offset``).

>>> from commerce.rules import find_ruleset
>>> from commerce.rl.tree import build_tree
>>> tree = build_tree(find_ruleset("trade-and-barter-mini"), 2, deals=3, seed=1)
>>> solver = CFRPlus(tree)
>>> solver.run(30)
>>> exploitability(tree, solver.average_policy()) < exploitability(tree, tree.uniform_policy())
True
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from commerce.rl.tree import CHANCE, TERMINAL, GameTree

I8 = npt.NDArray[np.int8]
I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]

__all__ = ["CFRPlus", "best_response", "best_response_value", "exploitability", "nash_conv",
           "policy_value"]


@njit(cache=True)
def _reach(kind: I8, parent: I32, slot: I32, prob: F64, infoset: I32, offset: I64,
           policy: F64, seat: int, opp: F64, own: F64) -> None:  # pragma: no cover - compiled
    """Top down: *own*, the seat's own part of each node's reach; *opp*, chance's and the
    other seats' (the counterfactual reach)."""
    opp[0] = 1.0
    own[0] = 1.0
    for c in range(1, kind.shape[0]):
        p = parent[c]
        k = kind[p]
        if k == CHANCE:
            opp[c] = opp[p] * prob[c]
            own[c] = own[p]
        elif k == seat:
            own[c] = own[p] * policy[offset[infoset[p]] + slot[c]]
            opp[c] = opp[p]
        else:
            opp[c] = opp[p] * policy[offset[infoset[p]] + slot[c]]
            own[c] = own[p]


@njit(cache=True)
def _values(kind: I8, parent: I32, slot: I32, prob: F64, infoset: I32, offset: I64,
            policy: F64, payoff: F64, u: F64) -> None:  # pragma: no cover - compiled
    """Bottom up: each node's expected payoff (*payoff*: one seat's at the leaves)."""
    n = kind.shape[0]
    for c in range(n):
        u[c] = payoff[c] if kind[c] == TERMINAL else 0.0
    for c in range(n - 1, 0, -1):
        p = parent[c]
        if kind[p] == CHANCE:
            u[p] += prob[c] * u[c]
        else:
            u[p] += policy[offset[infoset[p]] + slot[c]] * u[c]


@njit(cache=True)
def _cfr_plus_seat(kind: I8, parent: I32, slot: I32, prob: F64, infoset: I32, offset: I64,
                   actions: I64, iset_seat: I8, policy: F64, payoff: F64, seat: int,
                   weight: float, opp: F64, own: F64, u: F64, regret: F64, total: F64,
                   gain: F64) -> None:  # pragma: no cover - compiled
    """One CFR+ update of *seat*: regrets from the current policy, the average policy's sum
    (weighted by *weight*), then regret matching plus of the seat's information states."""
    _reach(kind, parent, slot, prob, infoset, offset, policy, seat, opp, own)
    _values(kind, parent, slot, prob, infoset, offset, policy, payoff, u)
    for i in range(iset_seat.shape[0]):
        if iset_seat[i] == seat:
            for a in range(actions[i]):
                gain[offset[i] + a] = 0.0
    n = kind.shape[0]
    for c in range(1, n):
        p = parent[c]
        if kind[p] == seat:
            o = offset[infoset[p]] + slot[c]
            gain[o] += opp[p] * (u[c] - u[p])
            total[o] += weight * own[p] * policy[o]
    for i in range(iset_seat.shape[0]):
        if iset_seat[i] != seat:
            continue
        o = offset[i]
        positive = 0.0
        for a in range(actions[i]):
            r = regret[o + a] + gain[o + a]
            regret[o + a] = r if r > 0.0 else 0.0
            positive += regret[o + a]
        for a in range(actions[i]):
            policy[o + a] = regret[o + a] / positive if positive > 0.0 else 1.0 / actions[i]


@njit(cache=True)
def _best_response(kind: I8, parent: I32, slot: I32, prob: F64, infoset: I32, offset: I64,
                   actions: I64, policy: F64, payoff: F64, seat: int, order: I32,
                   level_start: I64, child_start: I64, kids: I32, opp: F64, own: F64,
                   u: F64, q: F64, best: I64) -> float:  # pragma: no cover - compiled
    """*seat*'s best response to *policy* (the other seats' parts): its value, and in *best*
    the chosen action of each of the seat's information states. Levels are processed deepest
    first; at each, the seat's information states weigh their nodes by the counterfactual
    reach and take the action of the highest total."""
    _reach(kind, parent, slot, prob, infoset, offset, policy, seat, opp, own)
    levels = level_start.shape[0] - 1
    for level in range(levels - 1, -1, -1):
        lo, hi = level_start[level], level_start[level + 1]
        for j in range(lo, hi):
            nd = order[j]
            if kind[nd] == seat:
                o = offset[infoset[nd]]
                for a in range(actions[infoset[nd]]):
                    q[o + a] = 0.0
        for j in range(lo, hi):
            nd = order[j]
            k = kind[nd]
            if k == TERMINAL:
                u[nd] = payoff[nd]
            elif k == CHANCE:
                s = 0.0
                for x in range(child_start[nd], child_start[nd + 1]):
                    s += prob[kids[x]] * u[kids[x]]
                u[nd] = s
            elif k != seat:
                s = 0.0
                o = offset[infoset[nd]]
                for x in range(child_start[nd], child_start[nd + 1]):
                    s += policy[o + slot[kids[x]]] * u[kids[x]]
                u[nd] = s
            else:
                o = offset[infoset[nd]]
                for x in range(child_start[nd], child_start[nd + 1]):
                    q[o + slot[kids[x]]] += opp[nd] * u[kids[x]]
        for j in range(lo, hi):
            nd = order[j]
            if kind[nd] == seat:
                i = infoset[nd]
                o = offset[i]
                top = 0
                for a in range(1, actions[i]):
                    if q[o + a] > q[o + top]:
                        top = a
                best[i] = top
                u[nd] = u[kids[child_start[nd] + top]]
    return float(u[0])


class _Sweeps:
    """The tree's arrays in the forms the compiled sweeps take, built once per tree."""

    def __init__(self, tree: GameTree) -> None:
        self.tree = tree
        n = tree.nodes
        self.kind = tree.kind
        self.parent = tree.parent
        self.slot = tree.slot
        self.prob = tree.prob
        self.infoset = tree.infoset
        self.offset = tree.iset_offset
        self.actions = tree.iset_actions
        self.iset_seat = tree.iset_seat
        self.payoffs = [np.ascontiguousarray(tree.payoff[:, s]) for s in range(tree.players)]
        self.opp = np.zeros(n)
        self.own = np.zeros(n)
        self.u = np.zeros(n)
        self._levels: tuple[I32, I64, I64, I32] | None = None

    def levels(self) -> tuple[I32, I64, I64, I32]:
        """Nodes by depth, and each node's children (for the best responses)."""
        if self._levels is None:
            t = self.tree
            order = np.argsort(t.depth, kind="stable").astype(np.int32)
            level_start = np.concatenate(
                ([0], np.cumsum(np.bincount(t.depth)))).astype(np.int64)
            kids = (np.arange(1, t.nodes, dtype=np.int32))  # parents precede children
            kids = kids[np.argsort(t.parent[1:], kind="stable")]
            child_start = np.concatenate(
                ([0], np.cumsum(np.bincount(t.parent[1:], minlength=t.nodes)))).astype(np.int64)
            self._levels = (order, level_start, child_start, kids)
        return self._levels


def _sweeps(tree: GameTree) -> _Sweeps:
    # kept on the tree itself (no state outside it)
    found = tree.__dict__.get("_sweeps")
    if found is None:
        found = _Sweeps(tree)
        tree.__dict__["_sweeps"] = found
    return found


def policy_value(tree: GameTree, policy: np.ndarray, seat: int) -> float:
    """*seat*'s expected payoff when every seat plays *policy*."""
    s = _sweeps(tree)
    _values(s.kind, s.parent, s.slot, s.prob, s.infoset, s.offset, _checked(tree, policy),
            s.payoffs[seat], s.u)
    return float(s.u[0])


def best_response(tree: GameTree, policy: np.ndarray, seat: int) -> tuple[float, np.ndarray]:
    """*seat*'s best response to the other seats playing *policy*: its value, and the action
    (an index into the legal actions) it takes in each information state (-1 in the other
    seats')."""
    s = _sweeps(tree)
    order, level_start, child_start, kids = s.levels()
    q = np.zeros(tree.flat_actions)
    best = np.full(tree.infosets, -1, dtype=np.int64)
    value = _best_response(s.kind, s.parent, s.slot, s.prob, s.infoset, s.offset, s.actions,
                           _checked(tree, policy), s.payoffs[seat], seat, order, level_start,
                           child_start, kids, s.opp, s.own, s.u, q, best)
    return value, best


def best_response_value(tree: GameTree, policy: np.ndarray, seat: int) -> float:
    """What *seat* gets with a best response to the other seats playing *policy*."""
    return best_response(tree, policy, seat)[0]


def nash_conv(tree: GameTree, policy: np.ndarray) -> float:
    """The seats' total gain from deviating, each alone, to a best response (OpenSpiel's
    ``nash_conv``)."""
    return sum(best_response_value(tree, policy, seat) - policy_value(tree, policy, seat)
               for seat in range(tree.players))


def exploitability(tree: GameTree, policy: np.ndarray) -> float:
    """``nash_conv`` divided by the number of seats (OpenSpiel's ``exploitability``)."""
    return nash_conv(tree, policy) / tree.players


def _checked(tree: GameTree, policy: np.ndarray) -> np.ndarray:
    policy = np.ascontiguousarray(policy, dtype=np.float64)
    if policy.shape != (tree.flat_actions,):
        raise ValueError(f"a policy of this tree has {tree.flat_actions} entries, "
                         f"not {policy.shape}")
    return policy


class CFRPlus:
    """CFR+ over a tree, as OpenSpiel's ``CFRPlusSolver``: alternating updates (seat 0,
    then seat 1 against seat 0's new policy ...), regret matching plus, linear averaging."""

    def __init__(self, tree: GameTree) -> None:
        self.tree = tree
        self.iteration = 0
        self.policy = tree.uniform_policy()
        """The current policy."""
        self.regret = np.zeros(tree.flat_actions)
        self.total = np.zeros(tree.flat_actions)
        self._gain = np.zeros(tree.flat_actions)

    def run(self, iterations: int) -> None:
        """Run *iterations* more iterations."""
        s, t = _sweeps(self.tree), self.tree
        for _ in range(iterations):
            self.iteration += 1
            for seat in range(t.players):
                _cfr_plus_seat(s.kind, s.parent, s.slot, s.prob, s.infoset, s.offset,
                               s.actions, s.iset_seat, self.policy, s.payoffs[seat], seat,
                               float(self.iteration), s.opp, s.own, s.u, self.regret,
                               self.total, self._gain)

    def average_policy(self) -> np.ndarray:
        """The average policy (uniform where an information state was never reached)."""
        t = self.tree
        sums = np.add.reduceat(self.total, t.iset_offset) if t.infosets else self.total
        per = np.repeat(sums, t.iset_actions)
        uniform = t.uniform_policy()
        with np.errstate(invalid="ignore", divide="ignore"):
            out = np.where(per > 0, self.total / np.where(per > 0, per, 1.0), uniform)
        return out
