"""The widow family's reference rules: who decides, what is legal, and each action's effect.

A game is a session of deals (:mod:`.start` begins the session and each deal;
:mod:`.deal`): three cards to every player still in and a
widow of face-up cards; the dealer may first exchange blind; then, from the eldest, each
player in turn exchanges with the widow, passes, knocks or stands (:mod:`.turn`) until the
deal ends, and the hands are shown and settled (:mod:`.settle`). Reading those modules in
that order is reading the rules; this one says which step an action is.

>>> from commerce import engine
>>> from commerce.rules import find_ruleset
>>> from commerce.cards import parse_cards
>>> from commerce.families.widow.observe import observe
>>> s = engine.new_game(find_ruleset("widow"), players=3)
>>> deal = parse_cards("2S 3S 4S  9H 9D 9C  KS QD 7C  AS 5H 8D")
>>> s = engine.apply(s, engine.Action(engine.ActionKind.DEAL, deal)).state
>>> engine.decision(s).kind.value, engine.decision(s).seat   # the dealer, blind
('blind_exchange', 0)
>>> observe(s, 0).hand        # he has not looked at his hand
()
>>> [engine.format_action(s, a) for a in engine.legal_actions(s)]
['pass', 'exchange 5H', 'exchange 8D', 'exchange AS']
"""

from __future__ import annotations

from commerce.cards import format_card, format_cards
from commerce.core import Action, ActionKind, Decision, DecisionKind, Seat, Transition
from commerce.errors import IllegalActionError, IllegalReason
from commerce.families.widow import deal, settle, start, turn
from commerce.families.widow.options import WidowOptions
from commerce.families.widow.state import Phase, WidowState

new_game = start.new_game
sample_chance = deal.sample_chance
outcome = settle.outcome

_KIND: dict[Phase, DecisionKind] = {
    Phase.BLIND: DecisionKind.BLIND_EXCHANGE,
    Phase.TURN: DecisionKind.TURN,
    Phase.MORE: DecisionKind.MORE_EXCHANGE,
    Phase.FINAL: DecisionKind.FINAL_TURN,
    Phase.POUNCE: DecisionKind.POUNCE_OFFER,
    Phase.HORSE: DecisionKind.HORSE_OFFER,
}
_NO_CARDS = frozenset({ActionKind.PASS, ActionKind.DONE, ActionKind.KNOCK, ActionKind.STAND,
                       ActionKind.DECLINE, ActionKind.BUY_HORSE})


def decision(s: WidowState) -> Decision | None:
    """Who must decide what: chance while cards are dealt, None once the session is over."""
    phase = s.turn.phase
    if phase is Phase.DEAL or phase is Phase.CARD:
        return Decision(None, DecisionKind.CHANCE)
    if phase is Phase.OVER:
        return None
    return Decision(s.turn.actor, _KIND[phase])


def _exchanges(s: WidowState, seat: Seat) -> list[Action]:
    """Every one-for-one exchange *seat* may make now, by the card given then the card taken
    (cards moved this turn excepted)."""
    moved = s.turn.moved
    return [Action(ActionKind.EXCHANGE, (g, t)) for g in sorted(s.deal.hands[seat])
            if g not in moved for t in s.deal.widow if t not in moved]


def legal_actions(s: WidowState) -> tuple[Action, ...]:
    """Legal actions in a fixed order: pass/done, knock/stand, then exchanges by card."""
    opts = WidowOptions.of(s.ruleset)
    phase = s.turn.phase
    seat = s.turn.actor
    if phase is Phase.TURN or phase is Phase.FINAL:
        head = [Action(ActionKind.PASS)]
        end = opts.end_condition
        if phase is Phase.TURN and end == "knock_final_round" and s.deal.knocker is None:
            head.append(Action(ActionKind.KNOCK))
        elif phase is Phase.TURN and end == "two_stand":
            head.append(Action(ActionKind.STAND))
        if seat in s.deal.pounced:
            return tuple(head)
        return (*head, *_exchanges(s, seat))
    if phase is Phase.MORE:
        return (Action(ActionKind.DONE), *_exchanges(s, seat))
    if phase is Phase.DEAL or phase is Phase.CARD:
        return tuple(Action(ActionKind.DEAL, (c,)) for c in s.deal.stock)
    if phase is Phase.BLIND:
        if opts.dealer_blind_exchange == "all_or_nothing":
            return (Action(ActionKind.PASS), Action(ActionKind.EXCHANGE, s.deal.widow))
        stop = Action(ActionKind.PASS if s.turn.swaps == 0 else ActionKind.DONE)
        return (stop, *[Action(ActionKind.EXCHANGE, (c,)) for c in s.deal.widow
                        if c not in s.turn.moved])
    if phase is Phase.POUNCE:
        assert s.turn.offer is not None
        return (Action(ActionKind.POUNCE, (s.turn.offer,)), Action(ActionKind.DECLINE))
    if phase is Phase.HORSE:
        return (Action(ActionKind.BUY_HORSE), Action(ActionKind.DECLINE))
    return ()


def _check_deal(s: WidowState, action: Action) -> None:
    if action.kind is not ActionKind.DEAL:
        raise IllegalActionError(
            IllegalReason.NOT_YOUR_TURN, "chance must act now (deal a card), not a player"
        )
    cards = action.cards
    limit = s.deal.to_deal if s.turn.phase is Phase.DEAL else 1
    if not 1 <= len(cards) <= limit or len(set(cards)) != len(cards):
        raise IllegalActionError(IllegalReason.CARD_NOT_AVAILABLE,
                                 f"deal between 1 and {limit} different card(s) now")
    if not set(cards).issubset(s.deal.stock):
        raise IllegalActionError(IllegalReason.CARD_NOT_AVAILABLE,
                                 "a dealt card must be one of the unseen cards of the stock")


def _check_exchange(s: WidowState, seat: Seat, cards: tuple[int, ...]) -> None:
    if len(cards) != 2:
        raise IllegalActionError(
            IllegalReason.WRONG_KIND, "an exchange gives one card and takes one widow card"
        )
    give, take = cards
    if seat in s.deal.pounced:
        raise IllegalActionError(
            IllegalReason.NOT_ALLOWED_BY_RULES, "a pounced four may not be broken up"
        )
    hand = s.deal.hands[seat]
    if give not in hand:
        raise IllegalActionError(
            IllegalReason.CARD_NOT_HELD,
            f"name one of the cards you hold ({format_cards(sorted(hand))})",
        )
    if take not in s.deal.widow:
        raise IllegalActionError(
            IllegalReason.CARD_NOT_AVAILABLE,
            f"name one of the widow cards ({format_cards(s.deal.widow)})",
        )
    if give in s.turn.moved or take in s.turn.moved:
        raise IllegalActionError(
            IllegalReason.NOT_ALLOWED_BY_RULES,
            "a card moved this turn may not be moved back in the same turn",
        )


def _check_turn(s: WidowState, action: Action) -> None:
    phase = s.turn.phase
    kind = action.kind
    if kind is ActionKind.EXCHANGE:
        _check_exchange(s, s.turn.actor, action.cards)
        return
    if phase is Phase.MORE:
        if kind is ActionKind.DONE:
            return
        raise IllegalActionError(
            IllegalReason.WRONG_KIND,
            "you are exchanging: exchange another card, or end your turn (done)",
        )
    if kind is ActionKind.PASS:
        return
    if phase is Phase.TURN:
        end = WidowOptions.of(s.ruleset).end_condition
        if kind is ActionKind.KNOCK:
            if end != "knock_final_round":
                raise IllegalActionError(IllegalReason.NOT_ALLOWED_BY_RULES,
                                         "there is no knock in these rules")
            if s.deal.knocker is not None:
                raise IllegalActionError(IllegalReason.NOT_ALLOWED_BY_RULES,
                                         "someone has already knocked")
            return
        if kind is ActionKind.STAND:
            if end != "two_stand":
                raise IllegalActionError(IllegalReason.NOT_ALLOWED_BY_RULES,
                                         "there is no stand in these rules")
            return
    word = "exchange or pass" if phase is Phase.FINAL else "exchange, pass, knock or stand"
    raise IllegalActionError(IllegalReason.WRONG_KIND,
                             f"on your turn you may {word}, not {kind.value}")


def _check_blind(s: WidowState, action: Action) -> None:
    kind = action.kind
    cards = action.cards
    swaps = s.turn.swaps
    if kind is ActionKind.PASS and swaps == 0 or kind is ActionKind.DONE and swaps:
        return
    if kind is ActionKind.EXCHANGE:
        if WidowOptions.of(s.ruleset).dealer_blind_exchange == "all_or_nothing":
            if sorted(cards) != list(s.deal.widow):
                raise IllegalActionError(
                    IllegalReason.NOT_ALLOWED_BY_RULES,
                    "the dealer takes the whole widow for his whole hand, or nothing",
                )
            return
        if len(cards) != 1 or cards[0] not in s.deal.widow or cards[0] in s.turn.moved:
            raise IllegalActionError(
                IllegalReason.CARD_NOT_AVAILABLE,
                "name one widow card to take (not one you have just put there)",
            )
        return
    raise IllegalActionError(
        IllegalReason.WRONG_KIND,
        "before looking at your hand you may exchange with the widow, or "
        + ("pass" if swaps == 0 else "stop (done)"),
    )


def check(s: WidowState, action: Action) -> None:
    """Raise :class:`IllegalActionError` with a reason unless *action* is legal."""
    phase = s.turn.phase
    kind = action.kind
    if phase is Phase.OVER:
        raise IllegalActionError(IllegalReason.GAME_OVER, "the game is over")
    if phase is Phase.DEAL or phase is Phase.CARD:
        _check_deal(s, action)
        return
    if kind is ActionKind.DEAL:
        raise IllegalActionError(IllegalReason.WRONG_KIND, "no card is being dealt now")
    if action.cards and kind in _NO_CARDS:
        raise IllegalActionError(IllegalReason.WRONG_KIND, f"{kind.value} names no card")
    if phase is Phase.TURN or phase is Phase.FINAL or phase is Phase.MORE:
        _check_turn(s, action)
    elif phase is Phase.BLIND:
        _check_blind(s, action)
    elif phase is Phase.POUNCE:
        if kind is ActionKind.DECLINE:
            return
        if kind is ActionKind.POUNCE:
            offer = s.turn.offer
            assert offer is not None
            if action.cards != (offer,):
                raise IllegalActionError(IllegalReason.CARD_NOT_AVAILABLE,
                                         f"you may pounce on {format_card(offer)} only")
            return
        raise IllegalActionError(
            IllegalReason.WRONG_KIND,
            "the fourth card of your tricon is in the widow: pounce or decline",
        )
    elif kind is not ActionKind.BUY_HORSE and kind is not ActionKind.DECLINE:  # HORSE
        raise IllegalActionError(IllegalReason.WRONG_KIND,
                                 "you are out of counters: buy a horse or decline")


def apply(s: WidowState, action: Action) -> Transition:
    """Check *action*, then apply it (what :func:`commerce.engine.apply` calls).

    :raises IllegalActionError: with the reason, if *action* is not legal in *s*.
    """
    check(s, action)
    return apply_unchecked(s, action)


def apply_unchecked(s: WidowState, action: Action) -> Transition:
    """Apply an action already known to be legal: the rule step it is."""
    kind = action.kind
    phase = s.turn.phase
    seat = s.turn.actor
    if kind is ActionKind.DEAL:
        if phase is Phase.CARD:
            return deal.widow_card(s, action.cards[0])
        return deal.deal_cards(s, action.cards)
    if phase is Phase.BLIND:
        if kind is ActionKind.EXCHANGE:
            if WidowOptions.of(s.ruleset).dealer_blind_exchange == "all_or_nothing":
                return deal.blind_whole(s, action.cards)
            return deal.blind_take(s, action.cards[0])
        return deal.blind_stop(s, "blind_passed" if kind is ActionKind.PASS else "blind_done")
    if kind is ActionKind.EXCHANGE:
        return turn.exchange(s, seat, action.cards[0], action.cards[1])
    if kind is ActionKind.PASS:
        return turn.pass_(s, seat)
    if kind is ActionKind.DONE:
        return turn.done(s, seat)
    if kind is ActionKind.KNOCK:
        return turn.knock(s, seat)
    if kind is ActionKind.STAND:
        return turn.stand(s, seat)
    if kind is ActionKind.POUNCE:
        return turn.pounce(s, seat, action.cards[0])
    if kind is ActionKind.DECLINE and phase is Phase.POUNCE:
        return turn.decline_pounce(s, seat)
    return settle.horse(s, seat, bought=kind is ActionKind.BUY_HORSE)
