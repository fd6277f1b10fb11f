"""Vingt-un's encoding for learning agents (:mod:`commerce.encoding`).

Actions: ``content`` 0, ``card`` 1, ``divide`` 2, ``double`` 3, ``decline`` 4 (the dealer's
"no double", or, before the drawing, keeping the two cards as one hand), then ``stake k`` at
5 + k - min_stake for each stake allowed.

>>> import commerce
>>> from commerce.core import Action, ActionKind
>>> from commerce.rules import find_ruleset
>>> rules = find_ruleset("vingt-un")
>>> ENCODING.action_to_int(rules, 4, Action(ActionKind.STAKE, amount=2))
6
>>> ENCODING.num_actions(rules, 4)
9
"""

from __future__ import annotations

from commerce.core import Action, ActionKind, Event
from commerce.encoding import (
    DECISION_KINDS,
    Encoding,
    Features,
    Segment,
    history_segments,
    relative,
    write_history,
)
from commerce.errors import IllegalActionError, IllegalReason
from commerce.families.vingtun.observe import VingtUnObservation
from commerce.families.vingtun.options import VingtUnOptions, stakes
from commerce.families.vingtun.state import total
from commerce.rules import Ruleset

HISTORY = 8
"""K: the acts kept in the ``history`` segment."""

KINDS = ("staked", "doubled", "asked", "drew", "content", "divided", "over", "natural")
"""The event kinds the history records."""

_PLAIN = {ActionKind.CONTENT: 0, ActionKind.DRAW: 1, ActionKind.DIVIDE: 2,
          ActionKind.DOUBLE: 3, ActionKind.DECLINE: 4}


def num_actions(rules: Ruleset, _players: int) -> int:
    """Five plain actions and one per stake allowed."""
    return 5 + len(stakes(rules))


def action_to_int(rules: Ruleset, _players: int, action: Action) -> int:
    """The stable integer of *action* (see the module's docstring)."""
    plain = _PLAIN.get(action.kind)
    if plain is not None and not action.cards and action.amount is None:
        return plain
    amount = action.amount
    if (action.kind is ActionKind.STAKE and amount is not None
            and amount in stakes(rules)):
        return 5 + int(amount) - int(VingtUnOptions.of(rules).min_stake)
    raise IllegalActionError(IllegalReason.WRONG_KIND, f"no place in the action space for "
                                                       f"{action}")


def layout(rules: Ruleset, players: int) -> tuple[Segment, ...]:
    """The segments of a Vingt-un observation vector."""
    return (
        Segment("phase", len(DECISION_KINDS) + 1,
                "the decision now, one-hot over the decision kinds, last: the game is over"),
        Segment("to_act", players + 1,
                "who acts, relative to the seat (0: the seat itself), last: chance or nobody"),
        Segment("position", players, "the seat's place after the dealer (0: the dealer)"),
        Segment("hand", 52, "the seat's own cards, one slot per card of the pack"),
        Segment("face_up", 52, "the other seats' face-up cards"),
        Segment("used", 52, "the used cards the pone holds"),
        Segment("stakes", players, "each seat's net counters, from the seat on (0: the seat)"),
        Segment("pool", 1, "counters in the pool"),
        Segment("stock", 1, "cards left in the stock"),
        Segment("bets", players, "counters staked this hand by each seat, from the seat on"),
        Segment("total", 1, "the best total of the seat's hand now playing (or its first)"),
        Segment("doubled", 1, "1 if the dealer called 'double'"),
        Segment("dividing", 1, "1 while the players say in turn, before the drawing, whether "
                               "they divide a pair"),
        Segment("deal", 3, "the deal's number (from 1), the deals in the session, the hand"),
        *history_segments(KINDS, players, 52, HISTORY),
    )


def _cards(e: Event) -> tuple[int, ...]:
    card = e.get("card")
    if card is not None:
        return (card,)
    cards = e.get("cards")
    return tuple(cards) if cards is not None else ()


def encode(obs: VingtUnObservation) -> list[float]:
    """The observation as numbers (see :func:`layout`)."""
    n, me = obs.players, obs.seat
    f = Features(layout(obs.ruleset, n))
    d = obs.decision
    f.one_hot("phase", len(DECISION_KINDS) if d is None else DECISION_KINDS.index(d.kind))
    who = None if d is None else relative(d.seat, me, n)
    f.one_hot("to_act", n if who is None else who)
    f.one_hot("position", relative(me, obs.dealer, n))
    f.bits("hand", obs.hand)
    f.bits("face_up", (c for x, own in enumerate(obs.hands) if x != me for h in own
                       for c, up in zip(h.cards, h.up, strict=True) if up and c is not None))
    f.bits("used", obs.used)
    base = 0 if me is None else me
    f.put("stakes", [float(obs.balances[(base + i) % n]) for i in range(n)])
    f.put("pool", [float(obs.pool)])
    f.put("stock", [float(obs.stock_count)])
    f.put("bets", [float(sum(h.stake for h in obs.hands[(base + i) % n])) for i in range(n)])
    own = obs.hands[me] if me is not None else ()
    part = obs.part if me == obs.actor and obs.part < len(own) else 0
    cards = tuple(c for c in own[part].cards if c is not None) if own else ()
    f.put("total", [float(total(cards))])
    f.put("doubled", [float(obs.doubled)])
    f.put("dividing", [float(obs.stage == "divide")])
    f.put("deal", [float(obs.deal_number), float(obs.deals_total), float(obs.hand_number)])
    write_history(f, obs.events, KINDS, me, n, 52, HISTORY, _cards)
    return f.done()


ENCODING = Encoding(num_actions=num_actions, action_to_int=action_to_int, layout=layout,
                    encode=encode, history=HISTORY, chance_outcomes=52)
"""Vingt-un's encoding."""
