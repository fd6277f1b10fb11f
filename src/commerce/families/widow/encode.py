"""The widow family's encoding for learning agents (:mod:`commerce.encoding`).

Actions, with P the cards of the pack (52, or 32 for the piquet pack): ``pass`` 0, ``done`` 1,
``knock`` 2, ``stand`` 3, ``decline`` 4, ``buy horse`` 5, the dealer's blind exchange of the
whole widow 6; then the dealer's blind take of each widow card (P integers), ``pounce`` on each
card (P), and the one-for-one exchange of each card given for each card taken (P x P, by the card
given then the card taken).

>>> import commerce
>>> from commerce.core import Action, ActionKind
>>> from commerce.cards import parse_card
>>> from commerce.rules import find_ruleset
>>> widow = find_ruleset("widow")
>>> ENCODING.num_actions(widow, 4)
2815
>>> ENCODING.action_to_int(widow, 4, Action(ActionKind.EXCHANGE, (parse_card("2H"),
...                                                                parse_card("2S"))))
163
"""

from __future__ import annotations

from collections.abc import Iterable

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
from commerce.families.widow.observe import WidowObservation
from commerce.rules import Ruleset

HISTORY = 8
"""K: the acts of the last turns kept in the ``history`` segment."""

KINDS = ("passed", "done", "exchanged", "blind_passed", "blind_exchanged", "blind_done",
         "knocked", "stood", "pounced")
"""The event kinds the history records."""

_PLAIN = {ActionKind.PASS: 0, ActionKind.DONE: 1, ActionKind.KNOCK: 2, ActionKind.STAND: 3,
          ActionKind.DECLINE: 4, ActionKind.BUY_HORSE: 5}


def num_actions(rules: Ruleset, _players: int) -> int:
    """Seven actions without a card, then P blind takes, P pounces, P x P exchanges."""
    p = rules.pack
    return 7 + 2 * p + p * p


def action_to_int(rules: Ruleset, _players: int, action: Action) -> int:
    """The stable integer of *action* (see the module's docstring)."""
    p, off = rules.pack, 52 - rules.pack
    plain = _PLAIN.get(action.kind)
    if plain is not None:
        return plain
    cards = action.cards
    if action.kind is ActionKind.EXCHANGE:
        if len(cards) == 1:
            return 7 + cards[0] - off
        if len(cards) == 2:
            return 7 + 2 * p + (cards[0] - off) * p + cards[1] - off
        return 6
    if action.kind is ActionKind.POUNCE and len(cards) == 1:
        return 7 + p + cards[0] - off
    raise IllegalActionError(IllegalReason.WRONG_KIND,
                             f"no place in the action space for {action}")


def _seats(name: str, what: str, players: int) -> Segment:
    return Segment(name, players, f"{what}, one slot per seat from the seat on (0: the seat)")


def layout(rules: Ruleset, players: int) -> tuple[Segment, ...]:
    """The segments of a widow observation vector."""
    p, n = rules.pack, players
    return (
        Segment("phase", len(DECISION_KINDS) + 1,
                "the decision now, one-hot over the decision kinds, last: the game is over"),
        Segment("to_act", n + 1,
                "who acts, relative to the seat (0: the seat itself), last: chance or nobody"),
        Segment("position", n, "the seat's place after the dealer (0: the dealer)"),
        Segment("hand", p, "the seat's own cards it may see, one slot per card of the pack"),
        Segment("widow", p, "the face-up widow"),
        Segment("pounce_offer", p, "the card the seat is offered for a pounce"),
        _seats("hand_sizes", "cards each seat holds", n),
        _seats("tokens", "tokens or counters each seat holds (0 where the ruleset has none)", n),
        _seats("balances", "each seat's net result so far (tokens or stakes)", n),
        Segment("pool", 2, "stakes, then counters, in the pool"),
        Segment("stock", 1, "cards left in the stock"),
        Segment("deal", 2, "the deal's number (from 1) and the round of turns (0 while dealing)"),
        _seats("in_deal", "1 for each seat dealt in", n),
        _seats("out", "1 for each seat out of the game", n),
        _seats("locked", "1 for each seat that may not exchange again this deal", n),
        _seats("passed", "1 for each seat that has passed", n),
        _seats("stood", "1 for each seat that has stood or knocked", n),
        _seats("pounced", "1 for each seat holding a pounced four", n),
        _seats("knocker", "the seat that knocked, one-hot", n),
        Segment("final_turns", 1, "1 once the final turns have begun"),
        *history_segments(KINDS, n, 2 * p, HISTORY,
                           ": the cards given to the widow, then the cards taken or pounced"),
    )


def _cards(off: int, p: int, e: Event) -> Iterable[int]:
    gave, took, card = e.get("gave"), e.get("took"), e.get("card")
    for value, base in ((gave, 0), (took, p), (card, p)):
        if value is None:
            continue
        for c in (value if isinstance(value, tuple) else (value,)):
            yield base + c - off


def encode(obs: WidowObservation) -> list[float]:
    """The observation as numbers (see :func:`layout`)."""
    rules, n, me = obs.ruleset, obs.players, obs.seat
    p, off = rules.pack, 52 - rules.pack
    f = Features(layout(rules, n))
    d = obs.decision
    f.one_hot("phase", len(DECISION_KINDS) if d is None else DECISION_KINDS.index(d.kind))
    who = None if d is None else relative(d.seat, me, n)
    f.one_hot("to_act", n if who is None else who)
    f.one_hot("position", relative(me, obs.dealer, n))
    f.bits("hand", (c - off for c in obs.hand))
    f.bits("widow", (c - off for c in obs.widow))
    f.bits("pounce_offer", () if obs.pounce_offer is None else (obs.pounce_offer - off,))
    base = 0 if me is None else me

    def rotated(values: tuple[int, ...]) -> list[float]:
        return [float(values[(base + i) % n]) for i in range(n)]

    def marks(seats: Iterable[int]) -> list[int]:
        return [(s - base) % n for s in seats]

    f.put("hand_sizes", rotated(obs.hand_sizes))
    f.put("tokens", rotated(obs.tokens) if obs.tokens is not None else [0.0] * n)
    f.put("balances", rotated(obs.balances))
    f.put("pool", [float(obs.pool), float(obs.pool_counters)])
    f.put("stock", [float(obs.stock_count)])
    f.put("deal", [float(obs.deal_number), float(obs.round)])
    for name in ("in_deal", "out", "locked", "passed", "stood", "pounced"):
        f.bits(name, marks(getattr(obs, name)))
    f.bits("knocker", marks(() if obs.knocker is None else (obs.knocker,)))
    f.put("final_turns", [1.0 if obs.final_turns else 0.0])
    write_history(f, obs.events, KINDS, me, n, 2 * p, HISTORY, lambda e: _cards(off, p, e))
    return f.done()


ENCODING = Encoding(num_actions=num_actions, action_to_int=action_to_int, layout=layout,
                    encode=encode, history=HISTORY, chance_outcomes=52)
"""The widow family's encoding."""
