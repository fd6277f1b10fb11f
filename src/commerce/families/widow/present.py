"""What the widow games show people: menu entries in words, exchanges grouped by the card
given, with suit symbols.

>>> from commerce.cards import parse_card
>>> x = Action(ActionKind.EXCHANGE, (parse_card("7S"), parse_card("3H")))
>>> action_label(x, None)
'exchange 7♠ for 3♥'
>>> menu_group(x, None)
MenuGroup(heading='give 7♠ for', short='3♥')
"""

from __future__ import annotations

from collections.abc import Sequence

from commerce.cards import format_card, format_cards
from commerce.core import Action, ActionKind, DecisionKind
from commerce.families.widow.observe import WidowObservation
from commerce.families.widow.options import WidowOptions
from commerce.hands import evaluator_for
from commerce.presentation import (
    MenuGroup,
    Pile,
    Presentation,
    SeatView,
    TableView,
    card_face,
    hand_ranking,
    pack_symbols,
    quantity,
)
from commerce.rules import Ruleset
from commerce.text import seat_name

_BARE = {
    ActionKind.PASS: "pass",
    ActionKind.DONE: "done",
    ActionKind.KNOCK: "knock",
    ActionKind.STAND: "stand",
    ActionKind.DECLINE: "decline",
    ActionKind.BUY_HORSE: "buy a horse (one more counter)",
}


def action_label(action: Action, obs: WidowObservation) -> str:
    """A menu entry for *action* in words, its cards with suit symbols."""
    cards = action.cards
    if action.kind is ActionKind.EXCHANGE and len(cards) == 2:
        return f"exchange {format_card(cards[0], symbols=True)} for " \
               f"{format_card(cards[1], symbols=True)}"
    if action.kind is ActionKind.EXCHANGE:
        return f"take {format_cards(cards, symbols=True)} blind"
    if action.kind is ActionKind.POUNCE:
        return f"pounce on {format_cards(cards, symbols=True)}"
    return _BARE.get(action.kind, action.kind.value)


def menu_group(action: Action, obs: WidowObservation) -> MenuGroup | None:
    """One-for-one exchanges grouped by the card given; the rest stand alone."""
    cards = action.cards
    if action.kind is ActionKind.EXCHANGE and len(cards) == 2:
        return MenuGroup(f"give {format_card(cards[0], symbols=True)} for",
                         format_card(cards[1], symbols=True))
    return None


_PROMPTS = {
    DecisionKind.TURN: "Your turn: exchange with the widow, pass, or say you are content.",
    DecisionKind.MORE_EXCHANGE: "Exchange another card, or end your turn (done).",
    DecisionKind.BLIND_EXCHANGE: "You deal: exchange with the widow before you look at "
                                 "your hand, or keep it unseen (pass).",
    DecisionKind.FINAL_TURN: "Your last turn of the deal: exchange or pass.",
    DecisionKind.POUNCE_OFFER: "The fourth card of your tricon is in the widow: pounce "
                               "on it, or let it go.",
    DecisionKind.HORSE_OFFER: "You are out of counters: buy a horse (one more), or leave "
                              "the game.",
}


def table(obs: WidowObservation, names: Sequence[str]) -> TableView:
    """The table as the observation's seat sees it (only what the observation holds)."""
    rules = obs.ruleset
    seats = []
    for x in range(obs.players):
        notes = [word for flag, word in (
            (x in obs.out, "out"), (obs.knocker == x, "knocked"),
            (x in obs.stood and obs.knocker != x, "stood"), (x in obs.passed, "passed"),
            (x in obs.pounced, "pounced")) if flag]
        score = (quantity(obs.tokens[x], "tokens") if obs.tokens is not None
                 else quantity(obs.balances[x], "stakes", signed=True))
        cards = obs.hands[x]
        seats.append(SeatView(
            name=seat_name(names, x, obs.seat), score=score,
            cards=tuple(card_face(c) for c in cards) if cards else (),
            hidden=0 if cards or x in obs.out else obs.hand_sizes[x],
            dealer=x == obs.dealer,
            to_act=obs.decision is not None and obs.decision.seat == x,
            note=", ".join(notes), you=x == obs.seat, out=x in obs.out))
    piles = [Pile("widow", tuple(card_face(c) for c in obs.widow),
                  card_ids=tuple(obs.widow)),
             Pile("stock", count=quantity(obs.stock_count, "cards"))]
    if WidowOptions.of(rules).token_flow == "lowest_to_pool":
        piles.append(Pile("pool", count=f"{quantity(obs.pool, 'stakes')}, "
                                        f"{quantity(obs.pool_counters, 'counters')}"))
    hand = tuple(obs.hand) if obs.seat is not None else ()
    note = ""
    if len(hand) >= 3 and obs.seat is not None and obs.hands[obs.seat] is not None:
        value = evaluator_for(rules).value(hand[:3]) if len(hand) == 3 else None
        note = "" if value is None else f"{value.category.value}, {value.points} points"
    elif hand:
        note = "taken blind"
    progress = f"deal {obs.deal_number}, round {obs.round}"
    if obs.tokens is not None:
        progress += f", {obs.players - len(obs.out)} of {obs.players} still in"
    d = obs.decision
    prompt = ""
    if d is not None and d.seat == obs.seat and d.kind in _PROMPTS:
        prompt = _PROMPTS[d.kind]
        if d.kind is DecisionKind.TURN and WidowOptions.of(rules).end_condition == "two_stand":
            prompt = "Your turn: exchange with the widow, pass, or stand."
    elif d is not None and d.seat is not None:
        prompt = f"{seat_name(names, d.seat, obs.seat)} to act."
    return TableView(title=rules.name, progress=progress, seats=tuple(seats),
                     piles=tuple(piles), hand=tuple(card_face(c) for c in hand),
                     hand_cards=hand, hand_note=note, prompt=prompt)


_EXPLAIN = {
    DecisionKind.BLIND_EXCHANGE: (
        "The blind exchange: as the dealer you may, before you look at your cards, give one, "
        "two or three of them to the widow and take as many of the widow's face-up cards. "
        "Giving all three ends your exchanges for the deal. Or keep your hand unseen (pass) "
        "and look at it; you still have your ordinary turn, last in every round."),
    DecisionKind.TURN: (
        "Your turn: exchange one, two or three of your cards, one for one, with the widow's "
        "face-up cards; or pass, which ends your exchanges for this deal; or knock (say you "
        "are content), after which every other player has one last turn and the hands are "
        "shown."),
    DecisionKind.MORE_EXCHANGE: (
        "You may exchange another card with the widow (up to three this turn; a card you "
        "just moved cannot come back), or end your turn."),
    DecisionKind.FINAL_TURN: (
        "Someone knocked: this is your last turn of the deal. Exchange with the widow or "
        "pass; then the hands are shown."),
    DecisionKind.POUNCE_OFFER: (
        "A Pounce: the fourth card of the rank of your three of a kind is in the widow. You "
        "may take it at once, even out of turn, and hold four cards (a card from the stock "
        "takes its place in the widow): four of a kind beats every three-card hand, but you "
        "may not break it up, only pass or knock later. Or let it go."),
    DecisionKind.HORSE_OFFER: (
        "Buying a horse: you have lost your last counter. The first player to go out may buy "
        "one more counter, once, paying stakes into the pool, and stay in the game. Or "
        "decline and leave the game."),
}


def explain(obs: WidowObservation) -> str:
    """The decision at hand in words, for the help."""
    d = obs.decision
    if d is None or obs.seat is None or d.seat != obs.seat:
        return ""
    return _EXPLAIN.get(d.kind, "")


_COMMANDS = """Type an action by its number from the list, or in words:
  exchange CARD for CARD | x CARD for CARD
                            give a card of yours to the widow and take one of
                            the widow's (e.g. 'x 7h for qs'); swap up to three
                            this way, then 'done'
  done | d                  end your exchanges for this turn
  pass | p                  take no card
  knock | k                 you are content: everyone else has a final turn
  stand                     (Old Game) you are content
  pounce | decline          take the fourth card of your tricon, or let it go
  buy a horse | decline     (Pool) out of counters: buy one more, or leave
Cards: rank A K Q J T (or 10) 9 ... 2 and suit S H D C (or ♠♥♦♣),
e.g. AS 10h T♦.
"""
"""The plain interface's help."""


def unit_of(rules: Ruleset) -> str:
    """What a deal's payoffs count: tokens (moved from the lowest hands to the best),
    counters (put in the pool, in Pool Commerce), or stakes (Peel's Old Game)."""
    return {"lowest_to_best": "tokens", "lowest_to_pool": "counters"}.get(
        WidowOptions.of(rules).token_flow, "stakes")


PRESENTATION = Presentation(menu_group=menu_group, table=table,
                            card_symbols=pack_symbols,
                            rules_help=hand_ranking, explain=explain, commands=_COMMANDS,
                            short_words={"x": "exchange", "p": "pass", "k": "knock", "d": "done"},
                            gain_words="expected change of your stakes or tokens by the end of the "
                                       "deal")
"""The widow family's presentation hooks."""
