"""The fast path's queries: who decides, the legal actions and why an action is refused."""

from __future__ import annotations

from commerce.cards import format_card, format_cards
from commerce.core import (
    Action,
    Decision,
    Seat,
)
from commerce.errors import IllegalActionError, IllegalReason
from commerce.families.widow.fast.state import (
    _BIT,
    _BUY_HORSE,
    _CHANCE,
    _DEAL,
    _DECISIONS,
    _DECLINE,
    _DONE,
    _K_BUY_HORSE,
    _K_DEAL,
    _K_DECLINE,
    _K_DONE,
    _K_EXCHANGE,
    _K_KNOCK,
    _K_PASS,
    _K_POUNCE,
    _K_STAND,
    _NO_CARDS,
    _P_BLIND,
    _P_CARD,
    _P_DEAL,
    _P_FINAL,
    _P_HORSE,
    _P_MORE,
    _P_OVER,
    _P_POUNCE,
    _P_TURN,
    _PASS,
    _PASS_KNOCK,
    _PASS_ONLY,
    _PASS_STAND,
    _POUNCE,
    _SWAP,
    _TAKE,
    WidowState,
)


def decision(s: WidowState) -> Decision | None:
    """Who must decide what."""
    phase = s.phase
    if phase is _P_DEAL or phase is _P_CARD:
        return _CHANCE
    if phase is _P_OVER:
        return None
    return _DECISIONS[phase][s.actor]


def legal_actions(s: WidowState) -> tuple[Action, ...]:
    """Legal actions in a fixed order: pass/done, knock/stand, then exchanges by card."""
    phase = s.phase
    if phase is _P_TURN or phase is _P_FINAL:
        seat = s.actor
        head: tuple[Action, ...] = _PASS_ONLY
        if phase is _P_TURN:
            end = s.ruleset.end_condition
            if end == "knock_final_round":
                if s.knocker < 0:
                    head = _PASS_KNOCK
            elif end == "two_stand":
                head = _PASS_STAND
        if s.frozen & _BIT[seat]:
            return head
        widow = s.widow
        swap = _SWAP
        return (*head, *[swap[g][t] for g in sorted(s.hands[seat]) for t in widow])
    if phase is _P_MORE:
        moved = s.moved
        swap = _SWAP
        return (_DONE, *[swap[g][t] for g in sorted(s.hands[s.actor]) if g not in moved
                         for t in s.widow if t not in moved])
    if phase is _P_DEAL or phase is _P_CARD:
        return tuple(_DEAL[c] for c in s.unseen)
    if phase is _P_BLIND:
        if s.ruleset.dealer_blind_exchange == "all_or_nothing":
            return (_PASS, Action(_K_EXCHANGE, s.widow))
        stop = _PASS if s.swaps == 0 else _DONE
        return (stop, *[_TAKE[c] for c in s.widow if c not in s.moved])
    if phase is _P_POUNCE:
        return (_POUNCE[s.offer], _DECLINE)
    if phase is _P_HORSE:
        return (_BUY_HORSE, _DECLINE)
    return ()


def _swap_limit(s: WidowState) -> int:
    return int(s.ruleset.max_exchange_per_turn)


def check(s: WidowState, action: Action) -> None:
    """Raise :class:`IllegalActionError` with a reason unless *action* is legal."""
    phase = s.phase
    kind = action.kind
    cards = action.cards
    if phase is _P_OVER:
        raise IllegalActionError(IllegalReason.GAME_OVER, "the game is over")
    if phase is _P_DEAL or phase is _P_CARD:
        if kind is not _K_DEAL:
            raise IllegalActionError(
                IllegalReason.NOT_YOUR_TURN, "chance must act now (deal a card), not a player"
            )
        limit = s.to_deal if phase is _P_DEAL else 1
        dealt = set(cards)
        if not 1 <= len(cards) <= limit or len(dealt) != len(cards):
            raise IllegalActionError(
                IllegalReason.CARD_NOT_AVAILABLE,
                f"deal between 1 and {limit} different card(s) now",
            )
        if not dealt.issubset(s.unseen):
            raise IllegalActionError(
                IllegalReason.CARD_NOT_AVAILABLE,
                "a dealt card must be one of the unseen cards of the stock",
            )
        return
    if kind is _K_DEAL:
        raise IllegalActionError(IllegalReason.WRONG_KIND, "no card is being dealt now")
    if cards and kind in _NO_CARDS:
        raise IllegalActionError(IllegalReason.WRONG_KIND, f"{kind.value} names no card")
    seat = s.actor
    if phase is _P_TURN or phase is _P_FINAL or phase is _P_MORE:
        if kind is _K_EXCHANGE:
            _check_swap(s, seat, cards)
            return
        if phase is _P_MORE:
            if kind is _K_DONE:
                return
            raise IllegalActionError(
                IllegalReason.WRONG_KIND,
                "you are exchanging: exchange another card, or end your turn (done)",
            )
        if kind is _K_PASS:
            return
        if phase is _P_TURN:
            end = s.ruleset.end_condition
            if kind is _K_KNOCK:
                if end != "knock_final_round":
                    raise IllegalActionError(
                        IllegalReason.NOT_ALLOWED_BY_RULES, "there is no knock in these rules"
                    )
                if s.knocker >= 0:
                    raise IllegalActionError(
                        IllegalReason.NOT_ALLOWED_BY_RULES, "someone has already knocked"
                    )
                return
            if kind is _K_STAND:
                if end != "two_stand":
                    raise IllegalActionError(
                        IllegalReason.NOT_ALLOWED_BY_RULES, "there is no stand in these rules"
                    )
                return
        word = "exchange or pass" if phase is _P_FINAL else "exchange, pass, knock or stand"
        raise IllegalActionError(
            IllegalReason.WRONG_KIND, f"on your turn you may {word}, not {kind.value}"
        )
    if phase is _P_BLIND:
        if kind is _K_PASS and s.swaps == 0 or kind is _K_DONE and s.swaps:
            return
        if kind is _K_EXCHANGE:
            if s.ruleset.dealer_blind_exchange == "all_or_nothing":
                if sorted(cards) != list(s.widow):
                    raise IllegalActionError(
                        IllegalReason.NOT_ALLOWED_BY_RULES,
                        "the dealer takes the whole widow for his whole hand, or nothing",
                    )
                return
            if len(cards) != 1 or cards[0] not in s.widow or cards[0] in s.moved:
                raise IllegalActionError(
                    IllegalReason.CARD_NOT_AVAILABLE,
                    "name one widow card to take (not one you have just put there)",
                )
            return
        raise IllegalActionError(
            IllegalReason.WRONG_KIND,
            "before looking at your hand you may exchange with the widow, or "
            + ("pass" if s.swaps == 0 else "stop (done)"),
        )
    if phase is _P_POUNCE:
        if kind is _K_DECLINE:
            return
        if kind is _K_POUNCE:
            if cards != (s.offer,):
                raise IllegalActionError(
                    IllegalReason.CARD_NOT_AVAILABLE,
                    f"you may pounce on {format_card(s.offer)} only",
                )
            return
        raise IllegalActionError(
            IllegalReason.WRONG_KIND, "the fourth card of your tricon is in the widow: "
            "pounce or decline"
        )
    # HORSE
    if kind is _K_BUY_HORSE or kind is _K_DECLINE:
        return
    raise IllegalActionError(
        IllegalReason.WRONG_KIND, "you are out of counters: buy a horse or decline"
    )


def _may_swap(s: WidowState, seat: Seat, cards: tuple[int, ...]) -> bool:
    """Whether *seat* may exchange ``(give, take)`` in his turn (:func:`_check_swap` says
    why not)."""
    if len(cards) != 2 or s.frozen & _BIT[seat]:
        return False
    give, take = cards
    moved = s.moved
    return give in s.hands[seat] and take in s.widow and give not in moved and (
        take not in moved)


def _check_swap(s: WidowState, seat: Seat, cards: tuple[int, ...]) -> None:
    if _may_swap(s, seat, cards):
        return
    if len(cards) != 2:
        raise IllegalActionError(
            IllegalReason.WRONG_KIND, "an exchange gives one card and takes one widow card"
        )
    give, take = cards
    if s.frozen & _BIT[seat]:
        raise IllegalActionError(
            IllegalReason.NOT_ALLOWED_BY_RULES, "a pounced four may not be broken up"
        )
    if give not in s.hands[seat]:
        raise IllegalActionError(
            IllegalReason.CARD_NOT_HELD,
            f"name one of the cards you hold ({format_cards(sorted(s.hands[seat]))})",
        )
    if take not in s.widow:
        raise IllegalActionError(
            IllegalReason.CARD_NOT_AVAILABLE,
            f"name one of the widow cards ({format_cards(s.widow)})",
        )
    if give in s.moved or take in s.moved:
        raise IllegalActionError(
            IllegalReason.NOT_ALLOWED_BY_RULES,
            "a card moved this turn may not be moved back in the same turn",
        )
