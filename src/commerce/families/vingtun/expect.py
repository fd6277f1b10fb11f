"""Expected gains of Vingt-un's decisions, worked out from a seat's observation.

Each hand of Vingt-un is a contest of each player with the dealer alone, and every card a seat
cannot see is equally likely to be any of the unseen cards: the 52 less its own cards, the
face-up cards and the used cards the pone holds (all public). So the search bot need not play
the hand out at random: it weighs each action by the chances of the cards to come.

The model, stated once:

- Cards are drawn at the *composition* of the unseen cards when the decision is taken: the
  chance of each value (ace, two ... ten-card) is its share of them. Taking a card out of that
  composition within the hand is neglected (a few cards in thirty to fifty).
- Every other hand follows the heuristic's rule (:func:`~commerce.families.vingtun.heuristic
  .threshold`, a card below 17 and content from there), the dealer's included; a standing hand
  seen from the dealer's seat is a hand that kept that rule (where no deal of its face-down
  cards fits the rule, any deal that does not pass 21 and is no natural).
- The seat's own later choices are the best ones under this model (the same reckoning, made
  again when they come). A pair is divided, or kept as one hand, when the rules ask
  (``divide_when``: before anyone draws, or on the player's own turn); either way each half
  gets its second card face down and is then played at best against the dealer alone, so the
  reckoning is the same, made at the composition of that moment (before the drawing, without
  the cards the players before him will draw).
- Payments are Peel's as the options set them (:mod:`commerce.families.vingtun.settle`): the
  dealer takes ties and lower totals and pays higher ones, an over-drawn player pays at once,
  a 21 pays ``drawn_21_pays`` stakes, naturals ``natural_pays`` (the first hand's exception
  paid as a drawn 21); what comes after the hand (who deals next, the pool) is left out.

:func:`expected_gains` gives, for each legal action, its expected gain in counters (the dealer
doubling: summed over the stakes on the table) and the chance of ending the hand ahead; the
search bot plays the best (:mod:`commerce.bots.search`), and ``hint`` shows these figures.

>>> probs = probabilities((4,) * 9 + (16,))  # a full pack
>>> round(finals(0, False, probs, 17)[OVER], 4)  # a hand drawn to 17 from nothing passes 21
0.2816
"""

from __future__ import annotations

from collections.abc import Sequence

from commerce.cards import Card, pack
from commerce.core import Action, ActionKind
from commerce.families.vingtun.heuristic import threshold
from commerce.families.vingtun.observe import HandView, VingtUnObservation
from commerce.families.vingtun.options import VingtUnOptions
from commerce.families.vingtun.state import Status, value
from commerce.rules import Ruleset

OVER = 22
"""The key of an over-drawn hand in a distribution of final totals."""

Dist = dict[int, float]
"""Final totals (17 ... 21, or :data:`OVER`) and their chances."""

RULE = threshold(0.5)
"""The total from which every other hand is taken to be content (the heuristic's 17)."""


def composition(obs: VingtUnObservation) -> tuple[int, ...]:
    """How many unseen cards of each value (index 0: aces ... 9: ten-cards) the seat of *obs*
    reckons with: the pack less its own cards, every face-up card and the used cards."""
    known: set[Card] = set(obs.used) | set(obs.hand)
    known |= {c for own in obs.hands for h in own for c in h.cards if c is not None}
    counts = [0] * 10
    for c in pack(52):
        if c not in known:
            counts[value(c) - 1] += 1
    return tuple(counts)


def probabilities(counts: Sequence[int]) -> tuple[float, ...]:
    """Each value's chance of being the next card (uniform when no card is unseen)."""
    n = sum(counts)
    if n == 0:
        return (4 / 52,) * 9 + (16 / 52,)
    return tuple(k / n for k in counts)


def best_total(hard: int, ace: bool) -> int:
    """The total of cards worth *hard* with aces as one, an ace counting eleven if it fits."""
    return hard + 10 if ace and hard <= 11 else hard


def finals(hard: int, ace: bool, probs: Sequence[float], rule: int,
           memo: dict[tuple[int, bool], Dist] | None = None) -> Dist:
    """The final totals of a hand worth *hard* (with an ace if *ace*) that takes cards while
    below *rule* and is content from there."""
    memo = {} if memo is None else memo
    key = (hard, ace)
    if key in memo:
        return memo[key]
    t = best_total(hard, ace)
    if t > 21:
        out: Dist = {OVER: 1.0}
    elif t >= rule:
        out = {t: 1.0}
    else:
        out = {}
        for v, p in enumerate(probs, start=1):
            if p:
                for k, q in finals(hard + v, ace or v == 1, probs, rule, memo).items():
                    out[k] = out.get(k, 0.0) + p * q
    memo[key] = out
    return out


def natural_chance(first: int | None, probs: Sequence[float]) -> float:
    """The chance that a hand whose first card has value *first* (None: unseen) is a natural."""
    if first is None:
        return 2 * probs[0] * probs[9]
    if first == 1:
        return probs[9]
    return probs[0] if first == 10 else 0.0


def dealer_finals(first: int | None, probs: Sequence[float], rule: int = RULE) -> Dist:
    """The dealer's final totals when he holds no natural, from his first card's value (None:
    unseen), drawing while below *rule*."""
    memo: dict[tuple[int, bool], Dist] = {}
    out: Dist = {}
    starts = [(v, p) for v, p in enumerate(probs, start=1)] if first is None else [(first, 1.0)]
    weight = 0.0
    for a, pa in starts:
        for b, pb in enumerate(probs, start=1):
            if not pa * pb or {a, b} == {1, 10}:
                continue
            weight += pa * pb
            for k, q in finals(a + b, a == 1 or b == 1, probs, rule, memo).items():
                out[k] = out.get(k, 0.0) + pa * pb * q
    return {k: q / weight for k, q in out.items()} if weight else {OVER: 1.0}


def settle(mine: int, dealer: int, rules: Ruleset) -> float:
    """What a standing hand of *mine* wins per counter staked against the dealer's final
    *dealer* (:data:`OVER` when he over-draws)."""
    opts = VingtUnOptions.of(rules)
    if dealer == OVER or mine > dealer:
        return float(opts.drawn_21_pays if mine == 21 else 1)
    return -float(opts.drawn_21_pays if dealer == 21 else 1)


def content_value(mine: int, dealer: Dist, rules: Ruleset) -> tuple[float, float]:
    """(expected gain per counter, chance of winning) of standing on *mine*."""
    gain = sum(q * settle(mine, d, rules) for d, q in dealer.items())
    win = sum(q for d, q in dealer.items() if d == OVER or mine > d)
    return gain, win


class Player:
    """A player's best play of one hand against the dealer's final totals *dealer*."""

    def __init__(self, probs: Sequence[float], dealer: Dist, rules: Ruleset) -> None:
        self.probs = probs
        self.dealer = dealer
        self.rules = rules
        self.memo: dict[tuple[int, bool], tuple[float, float, bool]] = {}

    def content(self, hard: int, ace: bool) -> tuple[float, float]:
        """Standing now."""
        return content_value(best_total(hard, ace), self.dealer, self.rules)

    def draw(self, hard: int, ace: bool) -> tuple[float, float]:
        """Asking for a card, then playing on at best."""
        gain = win = 0.0
        for v, p in enumerate(self.probs, start=1):
            if p:
                g, w, _ = self.best(hard + v, ace or v == 1)
                gain += p * g
                win += p * w
        return gain, win

    def best(self, hard: int, ace: bool) -> tuple[float, float, bool]:
        """(gain, chance of winning, whether to draw) of the best play from here."""
        key = (hard, ace)
        if key not in self.memo:
            if best_total(hard, ace) > 21:
                self.memo[key] = (-1.0, 0.0, False)
            else:
                stand = self.content(hard, ace)
                self.memo[key] = (stand[0], stand[1], False)
                draw = self.draw(hard, ace)
                if draw[0] > stand[0]:
                    self.memo[key] = (draw[0], draw[1], True)
        return self.memo[key]

    def divided(self, card: int) -> tuple[float, float]:
        """Both halves of a divided pair of *card*'s value (per counter of the original stake;
        each half gets a second card face down, then is played at best)."""
        gain = win = 0.0
        for v, p in enumerate(self.probs, start=1):
            if p:
                g, w, _ = self.best(card + v, card == 1 or v == 1)
                gain += p * 2 * g
                win += p * w
        return gain, win

    def pair(self, a: int, b: int, may_divide: bool) -> tuple[float, float]:
        """The first two cards *a*, *b* (values), no natural: the best of playing them as one
        hand or, where allowed, dividing them."""
        g, w, _ = self.best(a + b, a == 1 or b == 1)
        if may_divide and a == b:
            dg, dw = self.divided(a)
            if dg > g:
                return dg, dw
        return g, w


def stake_value(first: int, probs: Sequence[float], rules: Ruleset,
                first_hand: bool) -> tuple[float, float]:
    """(expected gain per counter staked, chance of winning) of a player's hand whose first
    card has value *first*, before the second card and the dealer's."""
    opts = VingtUnOptions.of(rules)
    dealer = dealer_finals(None, probs)
    player = Player(probs, dealer, rules)
    dealer_natural = natural_chance(None, probs)
    pays = opts.drawn_21_pays if first_hand and opts.first_hand_natural_exception \
        else opts.natural_pays
    gain = win = 0.0
    for b, p in enumerate(probs, start=1):
        if not p:
            continue
        if {first, b} == {1, 10}:
            gain += p * (1 - dealer_natural) * pays
            win += p * (1 - dealer_natural)
            continue
        g, w = player.pair(first, b, opts.divide != "never")
        gain += p * (dealer_natural * -opts.natural_pays + (1 - dealer_natural) * g)
        win += p * (1 - dealer_natural) * w
    return gain, win


def player_versus(dealer_first: int, probs: Sequence[float],
                  rules: Ruleset) -> tuple[float, float]:
    """(expected gain per counter, chance of winning) of a player who keeps the heuristic's
    rule, against a dealer whose first card has value *dealer_first* and who keeps it too."""
    opts = VingtUnOptions.of(rules)
    dealer_natural = natural_chance(dealer_first, probs)
    player_natural = natural_chance(None, probs)
    dealer = dealer_finals(dealer_first, probs)
    memo: dict[tuple[int, bool], Dist] = {}
    played: Dist = {}
    weight = 0.0
    for a, pa in enumerate(probs, start=1):
        for b, pb in enumerate(probs, start=1):
            if not pa * pb or {a, b} == {1, 10}:
                continue
            weight += pa * pb
            for k, q in finals(a + b, a == 1 or b == 1, probs, RULE, memo).items():
                played[k] = played.get(k, 0.0) + pa * pb * q
    gain = -dealer_natural * (1 - player_natural) * opts.natural_pays
    win = (1 - dealer_natural) * player_natural
    gain += win * opts.natural_pays
    rest = (1 - dealer_natural) * (1 - player_natural)
    for t, q in played.items():
        share = rest * q / weight
        if t == OVER:
            gain -= share
        else:
            g, w = content_value(t, dealer, rules)
            gain += share * g
            win += share * w
    return gain, win


def standing_totals(hand: HandView, probs: Sequence[float]) -> Dist:
    """The totals a standing hand may hold, seen from the dealer's seat: its face-down cards
    dealt at the composition, keeping only the deals that fit the heuristic's rule (each card
    asked for below 17, content from 17, no natural; failing that, any deal not over 21)."""
    hidden = [i for i, c in enumerate(hand.cards) if c is None]
    shown = [value(c) if c is not None else 0 for c in hand.cards]
    deals: list[tuple[list[int], float]] = [([], 1.0)]
    for _ in hidden:
        deals = [([*vs, v], p * q) for vs, p in deals for v, q in enumerate(probs, start=1)
                 if p * q]
    strict: Dist = {}
    loose: Dist = {}
    for vs, p in deals:
        cards = shown[:]
        for i, v in zip(hidden, vs, strict=True):
            cards[i] = v
        t = _total(cards)
        if t > 21 or (not hand.divided and len(cards) == 2 and t == 21):
            continue
        loose[t] = loose.get(t, 0.0) + p
        start = 2
        kept = t >= RULE and all(_total(cards[:k]) < RULE for k in range(start, len(cards)))
        if kept:
            strict[t] = strict.get(t, 0.0) + p
    out = strict or loose or {21: 1.0}
    n = sum(out.values())
    return {t: q / n for t, q in out.items()}


def _total(values: Sequence[int]) -> int:
    return best_total(sum(values), 1 in values)


def dealer_values(obs: VingtUnObservation,
                  probs: Sequence[float]) -> dict[str, tuple[float, float]]:
    """The dealer's choice once the players have played: ``content`` and ``draw`` (then on at
    best), each (expected gain over every standing hand, chance of gaining)."""
    rules = obs.ruleset
    times = 2 if obs.doubled else 1
    standing = [(h.stake * times, standing_totals(h, probs))
                for seat, own in enumerate(obs.hands) if seat != obs.dealer
                for h in own if h.status == Status.CONTENT.value]
    memo: dict[tuple[int, bool], tuple[float, float]] = {}

    def stand(mine: int) -> tuple[float, float]:
        gain = 0.0
        for stake, dist in standing:
            for t, q in dist.items():
                gain -= q * stake * settle(t, mine, rules)
        return gain, float(gain > 0)

    def over() -> tuple[float, float]:
        drawn_21_pays = VingtUnOptions.of(rules).drawn_21_pays
        paid = sum(q * stake * (drawn_21_pays if t == 21 else 1)
                   for stake, dist in standing for t, q in dist.items())
        return -paid, 0.0

    def best(hard: int, ace: bool) -> tuple[float, float]:
        key = (hard, ace)
        if key not in memo:
            t = best_total(hard, ace)
            memo[key] = over() if t > 21 else max(stand(t), draw(hard, ace))
        return memo[key]

    def draw(hard: int, ace: bool) -> tuple[float, float]:
        gain = win = 0.0
        for v, p in enumerate(probs, start=1):
            if p:
                g, w = best(hard + v, ace or v == 1)
                gain += p * g
                win += p * w
        return gain, win

    own = [value(c) for c in obs.hands[obs.dealer][0].cards if c is not None]
    hard, ace = sum(own), 1 in own
    return {"content": stand(best_total(hard, ace)), "draw": draw(hard, ace)}


def expected_gains(obs: VingtUnObservation,
                   legal: Sequence[Action]) -> list[tuple[float, float]] | None:
    """For each of *legal*: (expected gain in counters, chance of ending the hand ahead), by
    the model of this module; None where the decision is not one it weighs."""
    seat = obs.seat
    if seat is None or not legal:
        return None
    rules = obs.ruleset
    probs = probabilities(composition(obs))
    kinds = {a.kind for a in legal}
    own = obs.hands[seat]
    if kinds == {ActionKind.STAKE}:
        cards = own[0].cards if own else ()
        if not cards or cards[0] is None:
            return None
        g, w = stake_value(value(cards[0]), probs, rules, obs.hand_number == 1)
        return [((a.amount or 0) * g, w) for a in legal]
    if kinds == {ActionKind.DOUBLE, ActionKind.DECLINE}:
        cards = own[0].cards if own else ()
        if not cards or cards[0] is None:
            return None
        g, w = player_versus(value(cards[0]), probs, rules)
        stakes = sum(h.stake for x, hs in enumerate(obs.hands) if x != seat for h in hs)
        return [(-g * stakes if a.kind is ActionKind.DOUBLE else 0.0, 1 - w) for a in legal]
    if obs.stage == "divide":
        return _divide_or_keep(obs, probs, legal)
    if not kinds <= {ActionKind.CONTENT, ActionKind.DRAW, ActionKind.DIVIDE}:
        return None
    if seat == obs.dealer:
        values = dealer_values(obs, probs)
        return [values["content"] if a.kind is ActionKind.CONTENT else values["draw"]
                for a in legal]
    if obs.part >= len(own):
        return None
    hand = own[obs.part]
    worth = [value(c) for c in hand.cards if c is not None]
    stake = hand.stake * (2 if obs.doubled else 1)
    player = Player(probs, dealer_finals(None, probs), rules)
    hard, ace = sum(worth), 1 in worth
    out = []
    for a in legal:
        if a.kind is ActionKind.CONTENT:
            g, w = player.content(hard, ace)
        elif a.kind is ActionKind.DRAW:
            g, w = player.draw(hard, ace)
        else:
            g, w = player.divided(worth[0])
        out.append((g * stake, w))
    return out


def _divide_or_keep(obs: VingtUnObservation, probs: Sequence[float],
                    legal: Sequence[Action]) -> list[tuple[float, float]] | None:
    """Before the drawing (``divide_when="before_drawing"``): dividing the pair (each half
    given its second card, then played at best) or keeping the two cards as one hand played at
    best; the same reckoning as on the player's own turn, at the composition of the moment."""
    seat = obs.seat
    assert seat is not None
    own = obs.hands[seat]
    worth = [value(c) for c in own[0].cards if c is not None] if own else []
    if len(own) != 1 or len(worth) != 2:
        return None
    stake = own[0].stake * (2 if obs.doubled else 1)
    player = Player(probs, dealer_finals(None, probs), obs.ruleset)
    hard, ace = sum(worth), 1 in worth
    out = []
    for a in legal:
        if a.kind is ActionKind.DIVIDE:
            g, w = player.divided(worth[0])
        else:
            g, w, _ = player.best(hard, ace)
        out.append((g * stake, w))
    return out
