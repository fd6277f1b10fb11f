"""Cox's compiled rules: the state's layout, the holdings (kept as cards move) and their
scoring (:mod:`.scoring`), over one integer array, for the kernel (:mod:`.kernel`); the
supply, laying out and buying are in :mod:`.compiled_supply`, the turn's steps, the legal
actions and a hand's deal and count (:mod:`.turn`, :mod:`.deal`, :mod:`.settle`) in
:mod:`.compiled_turn`.

Copies of a face are alike and no rule reads which copy is where, so the kernel keeps cards
by *face* (0-34): the 15 transport faces (``suit * 5 + number - 1``), the Captains (15-17),
the Bank (18), Fruit, Grain and Industries 1-4 (19-30) and the Greenbacks (31-34); a face's
card in actions is its first copy (:func:`.cards.face_card`). A game's whole state lives in
one ``int64`` array ``g`` of :data:`STATE_SIZE` slots, laid out for four seats at most: the
scalars (``_PHASE`` ...), the offer queue, each rack as a count per face, each seat's
laid-out combinations (kind, natural cards, the Captain joined or -1, size), its
Greenbacks (one flag per number), its base number and total, the discard pile (faces, with
its count per kind) and the four Supply Bases (faces, each drawn from its top and its bottom
between two bounds), and each seat's holding by kind (``_HOLD``). The options are the
slots of ``cfg`` (``_P`` ...). The steps work in a scratch array ``w``
(:data:`SCRATCH_SIZE`): a holding's counts per kind, the wild cards' targets, the legal
actions.

Actions are recorded as ``kind * 128 + card`` (:data:`KINDS`; the Directors cards are the
cards 80-82 of ``deal`` actions), decoded by :func:`decode_action`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from commerce.core import Action, ActionKind
from commerce.kernelkit import uncounted
from commerce.rules import OptionValues

KINDS: Final[tuple[ActionKind, ...]] = (
    ActionKind.DEAL, ActionKind.DRAW, ActionKind.BUY, ActionKind.DECLINE, ActionKind.DISCARD,
    ActionKind.SELL_OUT,
)
"""Action kinds by the code in the high bits of a recorded action."""
_K_DEAL, _K_DRAW, _K_BUY, _K_DECLINE, _K_DISCARD, _K_SELL = range(6)
NO_CARD: Final = 127
"""The card field of an action code that names no card."""

SUPPORTED: Final[Mapping[str, OptionValues]] = {
    # every option the family reads, the common ones first, with the values the kernel plays
    # (None: every value the ruleset allows); an option missing here is refused
    "pack": None, "min_players": None, "max_players": None, "direction": None,
    "hands_per_game": None, "buy_priority": None, "buy_offers": None,
    "captain_can_be_fourth": None, "bank_double_order": None,
    "bank_counts_for_clear_hand": None, "last_discard_buyable": None,
    "replacement_fallback": None,
}
"""The options the kernel plays, each with the values it plays (:func:`commerce.rules.refusal`
refuses the others by name; ``tests/test_cox_kernel.py`` plays each declared option's values,
:func:`commerce.rules.cover_values`, against the reference)."""

# Phases (:class:`.state.Phase`): a hand to start (chance), a seat's three decisions, the end.
_START, _TURN, _OFFER, _DISCARD, _OVER = 0, 2, 3, 4, 5

# Configuration slots.
(_P, _STEP, _HANDS, _ELIGIBLE, _CAP4, _BANK_BEFORE, _BANK_CLEAR, _LAST, _SKIP) = range(9)
_LAST_SELL_OUT, _LAST_YES, _LAST_NO = 0, 1, 2
CFG_SIZE: Final = 9
"""Slots of ``cfg``."""

_SEATS: Final = 4
"""Seats the layout holds (the most Cox's game seats)."""
_FACES: Final = 35
"""Faces of the pack."""
_MAXG: Final = 6
"""Combinations a seat's layout holds (a holding has room for four at most)."""
_BANK_FACE: Final = 18
_GREEN0: Final = 31

# State slots: the scalars.
(_PHASE, _PLAYER, _ACTOR, _LIVE, _DISCARDER, _PENDING, _BOUGHT, _MUST, _QHEAD, _QLEN, _CUR,
 _HAND, _DEALER, _RETAILER, _WHOLESALER, _NPILE, _SELLER, _TURNS) = range(18)
_Q: Final = 20
"""The offer queue (seats still to be asked, from ``_QHEAD``)."""
_RACK: Final = 32
"""Racks: ``_RACK + seat * 35 + face`` holds how many of the face the seat's rack holds."""
_RSIZE: Final = _RACK + _SEATS * _FACES
"""Cards in each rack."""
_NG: Final = _RSIZE + _SEATS
"""Laid-out combinations of each seat."""
_GK: Final = _NG + _SEATS
"""Each combination's kind (``seat * _MAXG + i``)."""
_GN: Final = _GK + _SEATS * _MAXG
"""Its natural cards."""
_GC: Final = _GN + _SEATS * _MAXG
"""The Captain's face joined to it, or -1."""
_GSZ: Final = _GC + _SEATS * _MAXG
"""Its size (3 or 4)."""
_GB: Final = _GSZ + _SEATS * _MAXG
"""Greenbacks laid out: ``_GB + seat * 4 + number - 1`` is 1 where held."""
_BN: Final = _GB + _SEATS * 4
"""Each seat's Supply Base number."""
_TOT: Final = _BN + _SEATS
"""Each seat's total over the finished hands."""
_PILE: Final = _TOT + _SEATS
"""The discard pile's faces, oldest first (``_NPILE`` of them)."""
_SEEN: Final = _PILE + 80
"""Cards of each kind (0-18) in the discard pile."""
_SUP: Final = _SEEN + 19
"""The Supply Bases: base *b* is ``_SUP + b * 20 + i``, cards ``_TOP + b`` to ``_BOT + b``."""
_TOP: Final = _SUP + 80
_BOT: Final = _TOP + 4
_HSC: Final = _BOT + 4
"""The last hand's scores, by seat."""
_HOLD: Final = _HSC + _SEATS
"""Each seat's holding (rack and laid-out cards, Greenbacks aside), kept as cards move
(:func:`_hold_add`): ``_HOLD + seat * _HW + k`` the cards of kind *k* (0-17), then the wild
cards' mask (bit *i*: face ``15 + i``), the natural cards, the kinds held and the kinds held
by one card (what :func:`_census` counts)."""
_HW: Final = 22
_H_MASK, _H_CARDS, _H_KINDS, _H_SINGLES = 18, 19, 20, 21
STATE_SIZE: Final = _HOLD + _SEATS * _HW
"""Slots of a game's state array."""

# Scratch slots.
_W_CNT: Final = 0
"""A holding's counts per kind (18), its wild cards' mask after them."""
_W_CNT2: Final = 20
"""A second holding (the heuristic's)."""
_W_OPT: Final = 40
"""The wild cards' targets (4 rows of 19)."""
_W_NOPT: Final = _W_OPT + 4 * 19
_W_IDX: Final = _W_NOPT + 4
_W_LEGAL: Final = _W_IDX + 4
"""The legal actions' codes."""
_W_KC: Final = _W_LEGAL + 170
"""Counts per kind (the heuristic's rack, seen and own cards)."""
_W_SEEN: Final = _W_KC + 20
_W_OUTS: Final = _W_SEEN + 20
_W_FACES: Final = _W_OUTS + 20
"""A list of faces (the directors and the pack while dealing)."""
_W_WON: Final = _W_FACES + 80
"""Hands won by each seat."""
_W_DISC: Final = _W_WON + _SEATS
"""The faces the actor may discard."""
_W_TIES: Final = _W_DISC + _FACES
"""The faces of the discards the heuristic values alike."""
SCRATCH_SIZE: Final = _W_TIES + _FACES
"""Slots of the scratch array."""


def encode_action_py(kind: ActionKind, card: int | None = None) -> int:
    """The code of an action of *kind* naming *card* (a card 0-79, or a Directors card)."""
    return KINDS.index(kind) * 128 + (NO_CARD if card is None else card)


def decode_action(code: int) -> Action:
    """The action a recorded code stands for.

    >>> decode_action(encode_action_py(ActionKind.DISCARD, 64))
    Action(kind=<ActionKind.DISCARD: 'discard'>, cards=(64,))
    >>> decode_action(encode_action_py(ActionKind.BUY)).cards
    ()
    """
    kind, card = divmod(int(code), 128)
    return Action(KINDS[kind], () if card == NO_CARD else (card,))


# -- faces ----------------------------------------------------------------------------------


@uncounted(inline="always")
def _kind(f: Any) -> Any:
    """A face's kind (:func:`.cards.kind_of`): 0-17, 18 for a Greenback, -1 for a wild card."""
    if f < 15:
        return f
    if f < 19:
        return -1
    if f < 31:
        return 15 + (f - 19) // 4
    return 18


@uncounted(inline="always")
def _card(f: Any) -> Any:
    """A face's first copy (the card actions name)."""
    return f * 4 if f < 15 else f + 45


@uncounted(inline="always")
def _face(card: Any) -> Any:
    """A card's face (:func:`.cards.face_of`)."""
    return card // 4 if card < 60 else card - 45


@uncounted(inline="always")
def _code(kind: Any, f: Any) -> Any:
    """The action code of *kind* naming face *f* (-1: no card)."""
    return kind * 128 + (127 if f < 0 else _card(f))


@uncounted(inline="always")
def _points(k: Any, n: Any) -> Any:
    """Points for *n* cards of kind *k* (:func:`.scoring._kind_points`)."""
    if k < 15:
        five = k % 5 == 4
        if n == 3:
            return 5 if five else 3
        if n >= 4:
            return 10 if five else 5
        return 0
    if n == 2:
        return 3
    if n == 3:
        return 5
    if n == 4:
        return 10
    return 0


# -- holdings ---------------------------------------------------------------------------------


@uncounted(inline="always")
def _rack_kind(g: Any, seat: Any, k: Any) -> Any:
    """Cards of kind *k* (0-17) in *seat*'s rack."""
    base = _RACK + seat * _FACES
    if k < 15:
        return g[base + k]
    f = 19 + (k - 15) * 4
    return g[base + f] + g[base + f + 1] + g[base + f + 2] + g[base + f + 3]


@uncounted(inline="always")
def _holding(g: Any, seat: Any, w: Any, at: Any) -> None:
    """*seat*'s rack and laid-out cards (Greenbacks aside) into ``w[at:at + 18]`` by kind,
    the wild cards as a mask at ``w[at + 18]`` (bit *i*: face ``15 + i``)."""
    for k in range(18):
        w[at + k] = 0
    base = _RACK + seat * _FACES
    for f in range(15):
        w[at + f] = g[base + f]
    for f in range(19, 31):
        w[at + 15 + (f - 19) // 4] += g[base + f]
    mask = 0
    for i in range(4):
        if g[base + 15 + i] > 0:
            mask |= 1 << i
    for i in range(g[_NG + seat]):
        at_g = seat * _MAXG + i
        w[at + g[_GK + at_g]] += g[_GN + at_g]
        c = g[_GC + at_g]
        if c >= 0:
            mask |= 1 << (c - 15)
    w[at + 18] = mask


@uncounted(inline="always")
def _hold_add(g: Any, seat: Any, f: Any, d: Any) -> None:
    """Add *d* (1 or -1) cards of face *f* to *seat*'s holding kept in ``g[_HOLD...]`` (a
    card that joins his rack, or leaves it for the pile; laying out moves none in or out)."""
    k = _kind(f)
    h = _HOLD + seat * _HW
    if 0 <= k < 18:
        n = g[h + k]
        if d > 0:
            g[h + _H_KINDS] += n == 0
            g[h + _H_SINGLES] += int(n == 0) - int(n == 1)
        else:
            g[h + _H_KINDS] -= n == 1
            g[h + _H_SINGLES] += int(n == 2) - int(n == 1)
        g[h + _H_CARDS] += d
        g[h + k] = n + d
    elif k < 0:
        if d > 0:
            g[h + _H_MASK] |= 1 << (f - 15)
        else:
            g[h + _H_MASK] &= ~(1 << (f - 15))


@uncounted(inline="always")
def _to_rack(g: Any, seat: Any, f: Any, d: Any) -> None:
    """Add *d* (1 or -1) cards of face *f* to *seat*'s rack: its count, its size and his
    kept holding."""
    g[_RACK + seat * _FACES + f] += d
    g[_RSIZE + seat] += d
    _hold_add(g, seat, f, d)


@uncounted()
def holdings(g: Any, p: Any, w: Any) -> None:
    """Every seat's holding in ``g[_HOLD...]`` built anew from the racks and the layouts (a
    state array written from outside the kernel), in the scratch *w*."""
    for seat in range(p):
        _holding(g, seat, w, _W_CNT)
        cards, kinds, singles, wilds = _census(w, _W_CNT)
        h = _HOLD + seat * _HW
        for k in range(19):
            g[h + k] = w[_W_CNT + k]
        g[h + _H_CARDS] = cards - wilds
        g[h + _H_KINDS] = kinds
        g[h + _H_SINGLES] = singles


@uncounted(inline="always")
def _hold_copy(g: Any, seat: Any, w: Any, at: Any) -> None:
    """*seat*'s kept holding into ``w[at:at + 19]`` (as :func:`_holding` builds it)."""
    h = _HOLD + seat * _HW
    for k in range(19):
        w[at + k] = g[h + k]


@uncounted(inline="always")
def _wilds(mask: Any) -> Any:
    """The wild cards of a mask."""
    return (mask & 1) + ((mask >> 1) & 1) + ((mask >> 2) & 1) + ((mask >> 3) & 1)


@uncounted(inline="always")
def _may_complete_held(g: Any, seat: Any, f: Any) -> Any:
    """:func:`.scoring.may_complete_less_one` of *seat*'s kept holding with face *f* added
    (-1: none), from its counts alone, and what a holding that is complete (:func:`_complete`)
    once one card is let go must hold besides: 9 to 11 cards, and three kinds, or four with
    one of them a lone card (letting go a card takes away one kind at most). False where none
    of its cards can be let go to complete it."""
    h = _HOLD + seat * _HW
    cards, kinds, singles, mask = (g[h + _H_CARDS], g[h + _H_KINDS], g[h + _H_SINGLES],
                                   g[h + _H_MASK])
    k = _kind(f) if f >= 0 else 18
    if 0 <= k < 18:
        n = g[h + k]
        kinds += n == 0
        singles += int(n == 0) - int(n == 1)
        cards += 1
    elif k < 0:
        mask |= 1 << (f - 15)
    wilds = _wilds(mask)
    cards += wilds
    return (singles <= wilds + 1 and 9 <= cards <= 11
            and (kinds == 3 or (kinds == 4 and singles >= 1)))


@uncounted(inline="always")
def _add(w: Any, at: Any, f: Any, d: Any) -> None:
    """Add *d* (1 or -1) cards of face *f* to the holding at *at*."""
    k = _kind(f)
    if 0 <= k < 18:
        w[at + k] += d
    elif k < 0:
        if d > 0:
            w[at + 18] |= 1 << (f - 15)
        else:
            w[at + 18] &= ~(1 << (f - 15))


@uncounted(inline="always")
def _census(w: Any, at: Any) -> Any:
    """``(cards, kinds, singles, wilds)`` of the holding at *at*: its cards (wild cards
    included), the kinds it holds, those it holds one card of, and its wild cards."""
    singles = 0
    kinds = 0
    cards = 0
    for k in range(18):
        n = w[at + k]
        singles += n == 1
        kinds += n > 0
        cards += n
    wilds = _wilds(w[at + 18])
    return cards + wilds, kinds, singles, wilds


@uncounted(inline="always")
def _targets(w: Any, at: Any, mask: Any, cap4: Any, unused: Any) -> Any:
    """The targets of the wild cards of *mask* (:func:`.scoring._wild_targets`, a lone card
    allowed) into ``w[_W_OPT...]`` (-1 first, for unused, with *unused*); the wild cards
    placed. Returns the number of wild cards, or -1 when one has no target and must be
    placed."""
    nw = 0
    for i in range(4):
        if mask & (1 << i) == 0:
            continue
        row = _W_OPT + nw * 19
        n = 0
        if unused:
            w[row] = -1
            n = 1
        if i == 3:  # the Bank
            for k in range(18):
                if 1 <= w[at + k] <= 2:
                    w[row + n] = k
                    n += 1
        else:
            most = 3 if cap4 else 2
            for k in range(i * 5, i * 5 + 5):
                if 1 <= w[at + k] <= most:
                    w[row + n] = k
                    n += 1
        if n == 0:
            return -1
        w[_W_NOPT + nw] = n
        nw += 1
    return nw


@uncounted(inline="always")
def _shape(w: Any, at: Any) -> Any:
    """Whether the counts at *at* are exactly two combinations and a pair, nothing else."""
    pairs = 0
    combos = 0
    for k in range(18):
        n = w[at + k]
        if n == 0:
            continue
        if n == 2:
            pairs += 1
        elif n >= 3:
            combos += 1
        else:
            return False
    return pairs == 1 and combos == 2


@uncounted(inline="always")
def _next_index(w: Any, nw: Any) -> Any:
    """Step the wild cards' choice (``w[_W_IDX...]``) on; False when every one was tried."""
    a = 0
    while a < nw:
        w[_W_IDX + a] += 1
        if w[_W_IDX + a] < w[_W_NOPT + a]:
            return True
        w[_W_IDX + a] = 0
        a += 1
    return False


@uncounted(inline="always")
def _distinct(w: Any, nw: Any) -> Any:
    """Whether the wild cards' chosen targets are distinct kinds (unused ones aside)."""
    for a in range(nw):
        ka = w[_W_OPT + a * 19 + w[_W_IDX + a]]
        if ka < 0:
            continue
        for b in range(a):
            if w[_W_OPT + b * 19 + w[_W_IDX + b]] == ka:
                return False
    return True


@uncounted()
def _complete(w: Any, at: Any, cap4: Any) -> Any:
    """:func:`.scoring.is_complete` of the holding at *at* (counts kept)."""
    cards, kinds, lone, _ = _census(w, at)
    # a wild card joins a kind already held, never starts one: two combinations and a pair
    # are three kinds before the wild cards are placed as after
    if cards < 8 or cards > 10 or kinds != 3:
        return False
    mask = w[at + 18]
    if mask == 0:
        return _shape(w, at)
    nw = _targets(w, at, mask, cap4, False)
    if nw < 0:
        return False
    # the three kinds held by how many: lone cards, pairs, three or more; each placement
    # moves its kinds on by one card (distinct kinds), so only they are counted again
    pairs = 0
    for k in range(18):
        pairs += w[at + k] == 2
    combos = kinds - lone - pairs
    for a in range(nw):
        w[_W_IDX + a] = 0
    while True:
        if _distinct(w, nw):
            lo, pa, co = lone, pairs, combos
            for a in range(nw):
                n = w[at + w[_W_OPT + a * 19 + w[_W_IDX + a]]]  # no unused one here
                lo -= n == 1
                pa += int(n == 1) - int(n == 2)
                co += n == 2
            if lo == 0 and pa == 1 and co == 2:
                return True
        if not _next_index(w, nw):
            return False


@uncounted()
def _best(w: Any, at: Any, cap4: Any) -> Any:
    """The points of the holding at *at*, its wild cards placed where they score most
    (:func:`.scoring._best`)."""
    mask = w[at + 18]
    nw = _targets(w, at, mask, cap4, True)
    held = 0  # the points without the wild cards; each placement adds what its kinds gain
    for k in range(18):
        held += _points(k, w[at + k])
    best = -1
    for a in range(nw):
        w[_W_IDX + a] = 0
    while True:
        if _distinct(w, nw):  # every kind then gains one card at most
            pts = held
            for a in range(nw):
                k = w[_W_OPT + a * 19 + w[_W_IDX + a]]
                if k >= 0:
                    n = w[at + k]
                    pts += _points(k, n + 1) - _points(k, n)
            if pts > best:
                best = pts
        if not _next_index(w, nw):
            return best


@uncounted()
def _score(g: Any, cfg: Any, w: Any, seat: Any, at: Any) -> Any:
    """:func:`.scoring.score_holding` of *seat*'s holding at *at* (from :func:`_holding`,
    perhaps changed) with its Greenbacks: the net score."""
    gross = _best(w, at, cfg[_CAP4] == 1)
    base = g[_BN + seat]
    for i in range(4):
        if g[_GB + seat * 4 + i] == 1:
            gross += 6 if i + 1 == base else 3
    mask = w[at + 18]
    suits = 0
    for k in range(15):
        if w[at + k] > 0:
            suits |= 1 << (k // 5)
    suits |= mask & 7  # the Captains are black cards of their suits
    bank = mask & 8 != 0
    if bank and cfg[_BANK_CLEAR] == 1:
        suits |= 8
    clear = (suits & (suits - 1)) == 0
    net = gross
    if bank:
        if cfg[_BANK_BEFORE] == 1:
            net = 2 * gross
            if not clear:
                net -= 5
        else:
            if not clear:
                net -= 5
            net *= 2
    elif not clear:
        net -= 5
    return net


@uncounted()
def _clear(w: Any, at: Any, cfg: Any) -> Any:
    """Whether the holding at *at* is clear (:attr:`.scoring.CoxScore.clear`)."""
    mask = w[at + 18]
    suits = mask & 7
    for k in range(15):
        if w[at + k] > 0:
            suits |= 1 << (k // 5)
    if mask & 8 != 0 and cfg[_BANK_CLEAR] == 1:
        suits |= 8
    return (suits & (suits - 1)) == 0
