"""Playouts of the trading family for the search bot, and what it believes of the deal.

Inside a drawn (determinised) state, every seat plays the heuristic bot's rules of thumb on its
own cards only until the deal's showdown: on the compiled kernel (:func:`kernel_playouts`)
where it plays the ruleset, else on the reference rules' unchecked transition (each action
comes from ``legal_actions``).

Where a turn is one action (no standing after a trade: Trade and Barter), a hand after a trade
says nothing of whether its holder would have stood, so the search draws its states by
replaying the deal (:func:`replayed_states`) rather than by judging the drawn hands
(:func:`plausible`); and it does not search barters there (:func:`candidates`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from commerce.cards import Card, pack
from commerce.core import Action, ActionKind, DecisionKind, Seat, Transition
from commerce.families.trading import rules as ref
from commerce.families.trading.heuristic import trading_action
from commerce.families.trading.observe import TradingObservation
from commerce.families.trading.options import TradingOptions
from commerce.families.trading.sample import prepare
from commerce.families.trading.state import Phase, TradingState
from commerce.family import BatchPlayouts, SearchHooks, kernel_or_none
from commerce.hands import evaluator_for
from commerce.rules import Ruleset
from commerce.strength import card_to_replace, strength_table, win_chance


def playout(state: TradingState, action: Action, seat: Seat,
            rng: random.Random) -> tuple[float, float]:
    """Play *action*, then heuristics to the deal's end: (gain in stakes from now, won).

    The playout steps the reference rules; each seat decides from its own observation, as
    the heuristic bot does at the table."""
    return _play(state, action, seat, rng, frozenset())


def erratic_seats(obs: TradingObservation) -> frozenset[Seat]:
    """The other seats that did what the heuristic never does, as far as *obs* shows: stood
    in the last deal on a hand it would not stand on (the showdown shows every hand), or, in
    this deal, bartered where a trade was free to them (the heuristic then trades)."""
    rules = obs.ruleset
    opts = TradingOptions.of(rules)
    out: set[Seat] = set()
    for e in obs.last_deal:
        q = e.seat
        if e.kind == "showdown" and q is not None and q != obs.seat:
            hand = tuple(e.get("hands")[q])
            if len(hand) == 3 and win_chance(rules, hand, obs.players - 1) < 0.5:
                out.add(q)
    for e in obs.events:
        q = e.seat
        if e.kind == "barter_offered" and q is not None and q != obs.seat:
            dealer = q == obs.dealer
            cost = opts.dealer_trade_cost if dealer else opts.trade_cost
            if cost <= 0 and (opts.dealer_may_trade or not dealer):
                out.add(q)
    return frozenset(out)


def fitted_playout(obs: TradingObservation) -> Callable[[TradingState, Action, Seat, random.Random],
                                                        tuple[float, float]] | None:
    """Where *obs* shows seats that play unlike the heuristic (:func:`erratic_seats`), a
    playout in which those seats choose at random among their legal actions (as the random
    bot does); else None. With seat 0 against random, heuristic, random in Peel (120 games,
    the same deals), search earned +3.28 a game and +4.56 when its playouts knew which seats
    play at random (the heuristic in its place: +3.63)."""
    erratic = erratic_seats(obs)
    if not erratic:
        return None

    def fitted(state: TradingState, action: Action, seat: Seat,
               rng: random.Random) -> tuple[float, float]:
        return _play(state, action, seat, rng, erratic)

    return fitted


def _play(state: TradingState, action: Action, seat: Seat, rng: random.Random,
          erratic: frozenset[Seat]) -> tuple[float, float]:
    """:func:`playout`, the *erratic* seats choosing at random."""
    start = state.balances[seat]
    apply = ref.apply_unchecked
    t = apply(state, action)
    while True:
        for e in t.events:
            if e.kind == "deal_ended":
                return _settle(t, seat, start)
        s = t.state
        phase = s.phase
        if phase is Phase.DEAL or phase is Phase.DRAW:
            t = apply(s, ref.sample_chance(s, rng))
            continue
        legal = ref.legal_actions(s)
        if len(legal) == 1:
            t = apply(s, legal[0])
            continue
        if s.actor in erratic:
            t = apply(s, legal[rng.randrange(len(legal))])
            continue
        t = apply(s, trading_action(ref.observe(s, s.actor), legal, rng, 0.5))


def plausible(state: TradingState, seat: Seat) -> bool:
    """Whether every other seat that ended its turn without standing holds a hand the
    heuristic would not stand on (the belief the search plays against); hands changed since
    by a barter are not judged."""
    log = state.log
    n = state.players
    judged = [False] * n
    touched = [False] * n
    busy = state.phase in (Phase.DRAW, Phase.AFTER_TRADE, Phase.BARTER_REPLY)
    for e in reversed(log):
        kind = e.kind
        if kind == "bartered" or kind == "barter_offered":
            partner = e.get("partner")
            touched[partner] = True
        if kind == "traded" or kind == "bartered":
            q = e.seat
            if q is None or q == seat or judged[q] or touched[q]:
                continue
            judged[q] = True
            if busy and q == state.turn:
                continue
            hand = state.hands[q]
            if len(hand) == 3 and win_chance(state.ruleset, hand, n - 1) >= 0.5:
                return False
    return True


def _settle(t: Transition, seat: Seat, start: int) -> tuple[float, float]:
    s: TradingState = t.state
    balance = s.balances[seat]
    if s.phase is not Phase.OVER:  # the next deal's antes are already taken: give them back
        opts = TradingOptions.of(s.ruleset)
        balance += opts.dealer_ante if seat == s.dealer else opts.ante
    won = 0.0
    for e in t.events:
        if e.kind == "showdown":
            won = float(seat in e.get("winners"))
    return float(balance - start), won


DEFAULT_ITERATIONS = 2000
"""Playouts per decision by default: the compiled playouts (:func:`kernel_playouts`) answer
within 200 ms here with four times the 500 the Python playouts could afford
(``commerce bench search``)."""

def _kernel(rules: Ruleset, players: int) -> Any:
    """The compiled kernel of *rules* at *players* seats, or None where it does not play them
    (built once per ruleset and table: :func:`commerce.family.kernel_or_none`)."""
    from commerce.families.trading.compiled import kernel

    return kernel_or_none(kernel, rules, players)


def kernel_playouts(obs: TradingObservation) -> BatchPlayouts[TradingState] | None:
    """The search bot's playouts on the compiled kernel (``SearchHooks.batch``): from a drawn
    state, each action and then the compiled heuristic in every seat (at random in the seats
    that play unlike it, :func:`erratic_seats`, as :func:`fitted_playout` plays them) to the
    deal's showdown; the same rules and the same heuristic as :func:`playout`, tested equal
    step for step. A decision of 500 playouts took a fifth to an eighth of the time
    (``commerce bench search``; docs/bots.md). None where the kernel does not play the
    ruleset."""
    kern = _kernel(obs.ruleset, obs.players)
    if kern is None:
        return None
    erratic = erratic_seats(obs)

    def playouts(state: TradingState, actions: Sequence[Action], seat: Seat,
                 key: int) -> list[tuple[float, float]]:
        gains, wins, _ = kern.playouts(state, actions, seat, key, erratic)
        return list(zip(gains.tolist(), wins.tolist(), strict=True))

    return playouts


REPLAY_TRIES = 30
"""Replays tried per drawn state for one in which no other seat passed up a hand the
heuristic would stand on; the last try is kept whatever it holds."""

REPLAY_BUDGET = 6
"""Replays tried per drawn state on average within one decision; past it, a state is drawn
again from the replays that fitted so far. Late in a long deal most replays are refused, and
trying :data:`REPLAY_TRIES` for every state took 270 ms a decision (of 820 ms under the
profiler, 660 were replays); from the fitted ones, the states keep to the play so far."""

_Step = tuple[str, Seat, Seat, Card | None, Card | None]
"""One move of the deal's script: (kind, seat, partner, card, card)."""


def one_action_turns(rules: Ruleset) -> bool:
    """Whether a turn is a single action: no standing after one's own trade or barter."""
    return not TradingOptions.of(rules).stand_after_trade


def replayed_states(obs: TradingObservation) -> Callable[[random.Random], TradingState] | None:
    """Where a turn is one action (:func:`one_action_turns`), a drawer of states made by
    replaying the deal the seat saw, with the heuristic's rules of thumb for what it did not.

    The other hands are dealt at random from the cards the seat did not hold or draw; then
    the deal's moves are replayed in order: the seat's own as it saw them, another seat's
    trade giving away the card the heuristic would give and drawing at random, a barter the
    seat took no part in answered as the heuristic would. A replay in which a seat trades or
    barters holding a hand the heuristic would stand on is refused and drawn again (up to
    :data:`REPLAY_TRIES` times), so the other hands are as strong as the play so far allows:
    kept pairs and fresh cards, not random hands. A card the seat saw another seat hold in a
    barter is moved into that hand when the replay has it elsewhere. Once the replays of one
    decision have cost :data:`REPLAY_BUDGET` a state on average, a state is drawn again from
    those that fitted.

    None (use the plain determinisation) where a turn is more than one action, or where the
    seat's decision is not the start of its turn or a barter's answer.
    """
    rules = obs.ruleset
    d = obs.decision
    seat = obs.seat
    if (seat is None or not one_action_turns(rules) or d is None
            or d.kind not in (DecisionKind.TURN, DecisionKind.BARTER_REPLY)):
        return None
    events = obs.events
    initial: tuple[Card, ...] | None = None
    script: list[_Step] = []
    drawn_by_seat: list[Card] = []

    def after(i: int, kind: str) -> Card:
        card: Card = next(e.get("card") for e in events[i + 1:] if e.kind == kind)
        return card

    for i, e in enumerate(events):
        kind = e.kind
        q = e.seat
        if q is None:
            continue
        if kind == "dealt" and q == seat:
            initial = tuple(e.get("cards"))
        elif kind == "traded":
            if q == seat:
                drawn = after(i, "drew")
                drawn_by_seat.append(drawn)
                script.append(("trade", q, q, after(i, "traded_card"), drawn))
            else:
                script.append(("trade", q, q, None, None))
        elif kind == "barter_offered" or kind == "bartered":
            partner = e.get("partner")
            offer = kind == "barter_offered"
            seen = None
            if seat in (q, partner):
                seen = after(i, "barter_card" if offer else "barter_returned")
            script.append(("offer" if offer else "return", q, partner, seen, None))
    if initial is None:
        return None
    plain = prepare(obs)  # the family's sampler (its ``sampler`` hook)
    n = obs.players
    held = set(initial) | set(drawn_by_seat)
    free = [c for c in pack(rules.pack) if c not in held]
    others = [q for q in range(n) if q != seat]
    first_unseen = len(pack(rules.pack)) - 3 * n
    hand = tuple(obs.hand)
    opponents = n - 1
    table = strength_table(rules)
    rank_of = evaluator_for(rules).rank_of
    own_cards_back = TradingOptions.of(rules).barter_return_from_original_hand

    def would_stand(cards: list[Card]) -> bool:
        return win_chance(rules, cards, opponents) >= 0.5

    def replay(rng: random.Random, strict: bool) -> tuple[list[list[Card]], list[Card],
                                                          list[Card]] | None:
        dealt = rng.sample(free, 3 * len(others))
        hands: list[list[Card]] = [[] for _ in range(n)]
        for j, q in enumerate(others):
            hands[q] = dealt[3 * j:3 * j + 3]
        hands[seat] = list(initial)
        taken = set(dealt)
        unseen = [c for c in free if c not in taken]
        bottom: list[Card] = []
        unseen_left = first_unseen
        offered: Card | None = None

        def move_into(card: Card, q: Seat) -> None:
            """Put *card* into q's hand, swapping with one of q's cards where it was."""
            h = hands[q]
            if card in h:
                return
            j = rng.randrange(len(h))
            out, h[j] = h[j], card
            for o in others:
                if o != q and card in hands[o]:
                    hands[o][hands[o].index(card)] = out
                    return
            for place in (unseen, bottom):
                if card in place:
                    place[place.index(card)] = out
                    return
            unseen.append(out)  # pragma: no cover - the card was nowhere else

        for kind, q, partner, card, drawn in script:
            if kind == "trade":
                h = hands[q]
                if q != seat:
                    if strict and would_stand(h):
                        return None
                    card = card_to_replace(rules, tuple(sorted(h)))
                assert card is not None
                h.remove(card)
                bottom.append(card)
                if unseen_left > 0:
                    unseen_left -= 1
                    if q != seat:
                        drawn = unseen.pop(rng.randrange(len(unseen)))
                else:
                    drawn = bottom.pop(0)
                assert drawn is not None
                h.append(drawn)
            elif kind == "offer":
                if q != seat:
                    if strict and would_stand(hands[q]):
                        return None
                    if card is None:
                        card = card_to_replace(rules, tuple(sorted(hands[q])))
                    else:
                        move_into(card, q)
                offered = card
            else:  # the partner's answer to the barter
                give = offered
                assert give is not None
                mine = hands[partner]
                if card is None:  # as the heuristic answers: keep the better hand
                    options = sorted(mine if own_cards_back else (*mine, give))
                    card = max(options, key=lambda c: table[rank_of(
                        tuple(give if x == c else x for x in mine))])
                elif partner != seat and card != give:
                    move_into(card, partner)
                if card != give:  # else the offered card came straight back
                    theirs = hands[q]
                    theirs[theirs.index(give)] = card
                    mine[mine.index(card)] = give
                offered = None
        return hands, unseen, bottom

    # Replays that fitted, to draw again once the replays of this decision have cost more
    # than REPLAY_BUDGET a draw on average (late in a long deal most replays are refused).
    fitted: list[tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...], tuple[Card, ...]]] = []
    spent = [0, 0]  # replays tried, states drawn

    def draw(rng: random.Random) -> TradingState:
        spent[1] += 1
        got = None
        for attempt in range(REPLAY_TRIES):
            if fitted and spent[0] >= REPLAY_BUDGET * spent[1]:
                old = fitted[rng.randrange(len(fitted))]
                got = [list(h) for h in old[0]], list(old[1]), list(old[2])
                break
            spent[0] += 1
            got = replay(rng, strict=attempt < REPLAY_TRIES - 1)
            if got is not None:
                if attempt < REPLAY_TRIES - 1:
                    fitted.append((tuple(tuple(h) for h in got[0]), tuple(got[1]),
                                   tuple(got[2])))
                break
        template: TradingState = plain(rng)
        assert got is not None
        hands, unseen, bottom = got
        if sorted(hands[seat]) != sorted(hand):  # pragma: no cover - a log it cannot follow
            return template
        hands[seat] = list(hand)
        return replace(template, deal=replace(template.deal, hands=tuple(tuple(h) for h in hands),
                                              unseen=tuple(sorted(unseen)), bottom=tuple(bottom)))

    return draw


def candidates(obs: TradingObservation, legal: Sequence[Action]) -> list[int]:
    """The actions the search weighs: all, except where a turn is one action (Trade and
    Barter), where it weighs only the knock, the heuristic's own choice and the trade of the
    card the heuristic would replace.

    There a barter's playouts are noisy (the cards it moves differ from world to world) and
    searching them lost more by chance picks than it found; trading another card than the
    heuristic's is rarely better, and weighing every card spread the playouts over actions
    whose estimates differ mostly by noise. With the three, against the heuristic over 300
    games (seed 1): +0.21 [+0.00, +0.42] a game, where weighing every trade and the knock
    gave +0.07 [-0.10, +0.24] over 600.
    """
    everything = list(range(len(legal)))
    if not one_action_turns(obs.ruleset):
        return everything
    favourite = trading_action(obs, legal, random.Random(0), 0.5)
    give = card_to_replace(obs.ruleset, tuple(obs.hand))
    kept = [i for i, a in enumerate(legal)
            if a == favourite or a.kind is ActionKind.STAND
            or (a.kind is ActionKind.TRADE and a.cards == (give,))]
    return kept or everything


SEARCH: SearchHooks[TradingState, TradingObservation] = SearchHooks(
    playout=playout, belief=plausible, candidates=candidates, sampler=replayed_states,
    fitted=fitted_playout, batch=kernel_playouts, iterations=DEFAULT_ITERATIONS,
)
"""The trading family's hooks for the search bot."""
