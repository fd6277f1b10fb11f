"""The search bot's reckoning of Vingt-un (families/vingtun/expect.py): exact values on packs
made to be worked by hand, the model checked against a plain simulation of itself, and the
bot's choices at the table from real observations."""

from __future__ import annotations

import random

import pytest

from commerce import engine
from commerce.bots import make_bot
from commerce.cards import parse_card
from commerce.families.vingtun import expect
from commerce.families.vingtun.expect import (
    OVER,
    Player,
    content_value,
    dealer_finals,
    finals,
    natural_chance,
    probabilities,
    settle,
    stake_value,
)
from commerce.families.vingtun.observe import HandView
from commerce.rules import find_ruleset
from tests.test_vingtun import table

RULES = find_ruleset("vingt-un")
FULL = probabilities((4,) * 9 + (16,))
ONLY_TENS = probabilities((0,) * 9 + (16,))
ONLY_TWOS = probabilities((0, 4) + (0,) * 8)


def test_hands_drawn_to_the_rule_from_packs_worked_by_hand():
    assert finals(0, False, ONLY_TENS, 17) == {20: 1.0}
    assert finals(0, False, ONLY_TWOS, 17) == {18: 1.0}
    assert finals(15, False, ONLY_TENS, 17) == {OVER: 1.0}
    # Sevens and tens, half each, from 10: a ten makes 20; a seven 17.
    half = probabilities((0,) * 6 + (4, 0, 0, 4))
    assert finals(10, False, half, 17) == pytest.approx({17: 0.5, 20: 0.5})
    assert sum(finals(0, False, FULL, 17).values()) == pytest.approx(1.0)


def test_the_dealers_totals_leave_out_his_natural():
    aces_and_tens = probabilities((4,) + (0,) * 8 + (4,))
    d = dealer_finals(None, aces_and_tens)
    # Ace-ten is a natural (left out): half the rest is ten-ten (20); ace-ace (soft 12)
    # reaches 17 only by aces, one ten making a hard 12 that needs five more (worked by hand:
    # 7/64 of the ace-ace hands), and else passes 21.
    assert d == pytest.approx({20: 0.5, 17: 7 / 128, OVER: 0.5 - 7 / 128})
    assert natural_chance(None, aces_and_tens) == pytest.approx(0.5)
    assert natural_chance(1, FULL) == pytest.approx(16 / 52)
    assert sum(dealer_finals(7, FULL).values()) == pytest.approx(1.0)


def test_settlement_ties_and_twenty_ones():
    assert settle(18, 18, RULES) == -1  # a tie pays the dealer
    assert settle(19, 18, RULES) == 1
    assert settle(21, 20, RULES) == 2  # a drawn 21 is paid double
    assert settle(20, 21, RULES) == -2  # and collects double
    assert settle(21, 21, RULES) == -2
    assert settle(12, OVER, RULES) == 1
    assert content_value(20, {20: 0.25, OVER: 0.75}, RULES) == (0.5, 0.75)


def test_a_player_draws_where_drawing_is_worth_more_and_never_past_21():
    player = Player(FULL, dealer_finals(None, FULL), RULES)
    assert player.best(12, False)[2] is True
    assert player.best(20, False)[2] is False
    assert player.best(22, False) == (-1.0, 0.0, False)
    # Standing on 16 loses to every total the dealer stands on, as standing on 17 does.
    assert player.content(16, False) == player.content(17, False)


def test_staking_on_an_ace_is_worth_it_and_on_a_seven_it_is_not():
    assert stake_value(1, FULL, RULES, False)[0] > 0.3
    assert stake_value(7, FULL, RULES, False)[0] < -0.2
    # From a pack of ten-cards and aces only, an ace's second card makes a natural half the time.
    aces_and_tens = probabilities((4,) + (0,) * 8 + (4,))
    gain, win = stake_value(1, aces_and_tens, RULES, False)
    assert win >= 0.5 * (1 - natural_chance(None, aces_and_tens))


def _simulate_player(first: int, probs: tuple[float, ...], rng: random.Random,
                     draw_below: int) -> float:
    """A plain simulation of the model: infinite pack at *probs*, the player drawing below
    *draw_below*, the dealer below 17; Peel's payments."""
    values = list(range(1, 11))

    def card() -> int:
        return rng.choices(values, probs)[0]

    def tot(vs: list[int]) -> int:
        return expect.best_total(sum(vs), 1 in vs)

    dealer = [card(), card()]
    mine = [first, card()]
    d_nat = sorted(dealer) == [1, 10]
    p_nat = sorted(mine) == [1, 10]
    if d_nat:
        return 0.0 if p_nat else -RULES.natural_pays
    if p_nat:
        return float(RULES.natural_pays)
    while tot(mine) < draw_below:
        mine.append(card())
    if tot(mine) > 21:
        return -1.0
    while tot(dealer) < 17:
        dealer.append(card())
    d = tot(dealer)
    return settle(tot(mine), OVER if d > 21 else d, RULES)


def test_the_reckoning_agrees_with_a_plain_simulation_of_a_fixed_rule():
    """The player's value of a hand played to the rule 'a card below 17' from a ten, worked
    out, against 40,000 simulated hands (no dividing with a ten first and the pair rule)."""
    probs = FULL
    dealer = dealer_finals(None, probs)
    d_nat = natural_chance(None, probs)
    worked = 0.0
    memo: dict[tuple[int, bool], dict[int, float]] = {}
    for b, p in enumerate(probs, start=1):
        if b == 1:
            worked += p * (1 - d_nat) * RULES.natural_pays
            continue
        hand = 0.0
        for t, q in finals(10 + b, False, probs, 17, memo).items():
            hand += q * (-1.0 if t == OVER else content_value(t, dealer, RULES)[0])
        worked += p * (d_nat * -RULES.natural_pays + (1 - d_nat) * hand)
    rng = random.Random(7)
    n = 40_000
    sims = [_simulate_player(10, probs, rng, 17) for _ in range(n)]
    mean = sum(sims) / n
    sd = (sum((x - mean) ** 2 for x in sims) / n) ** 0.5
    assert abs(mean - worked) < 4 * sd / n ** 0.5, (mean, worked)


def test_a_standing_hand_seen_from_the_dealer_keeps_the_rule():
    # Two face-down cards and a drawn ten: the first two were below 17 (a card was asked
    # for) and the three reach 17 or more without passing 21.
    hand = HandView(cards=(None, None, parse_card("TS")), stake=1, status="content", divided=False,
                    up=(False, False, True))
    dist = expect.standing_totals(hand, FULL)
    assert set(dist) == {17, 18, 19, 20, 21}
    assert sum(dist.values()) == pytest.approx(1.0)
    # Two face-down cards alone: a total of 17 to 20 (21 would have been a natural).
    alone = HandView(cards=(None, None), stake=1, status="content", divided=False,
                     up=(False, False))
    assert set(expect.standing_totals(alone, FULL)) == {17, 18, 19, 20}


def _seat_to_stake(first: str) -> tuple[object, object]:
    t = table()
    t.act(f"deal {first}")
    state = t.state
    return engine.observe(state, 1), engine.legal_actions(state)


def test_the_search_stakes_the_most_on_an_ace_and_the_least_on_a_seven_without_playouts():
    bot = make_bot("search")
    obs, legal = _seat_to_stake("AS 5H 9H")
    assert bot.act(obs, legal, random.Random(1)).amount == max(a.amount for a in legal)
    assert bot.playouts == 0
    obs, legal = _seat_to_stake("7S 5H 9H")
    assert bot.act(obs, legal, random.Random(1)).amount == min(a.amount for a in legal)


def test_the_dealer_doubles_on_a_first_card_that_favours_him():
    t = table()
    t.act("deal 5S 5H AH", "stake 2", "stake 2")
    obs, legal = engine.observe(t.state, 0), engine.legal_actions(t.state)
    gains = expect.expected_gains(obs, legal)
    assert gains is not None
    double = next(i for i, a in enumerate(legal) if a.kind.value == "double")
    assert gains[double][0] > 0  # an ace: the players' stakes are worth more to him doubled
    bot = make_bot("search")
    assert bot.act(obs, legal, random.Random(1)).kind.value == "double"


def _declaring(second: str, **options: object) -> tuple[object, tuple[object, ...]]:
    t = table(**options)
    t.act("deal AS 9H 5D", "stake 2", "stake 1", "decline", f"deal {second}")
    return engine.observe(t.state, 1), engine.legal_actions(t.state)


def test_before_the_drawing_the_search_divides_aces_as_it_would_on_its_own_turn():
    obs, legal = _declaring("AH 9C 7D")
    assert obs.stage == "divide" and [a.kind.value for a in legal] == ["divide", "decline"]
    gains = expect.expected_gains(obs, legal)
    assert gains is not None and gains[0][0] > gains[1][0]  # two aces: divide
    bot = make_bot("search")
    assert bot.act(obs, legal, random.Random(1)).kind.value == "divide"
    assert bot.playouts == 0
    # the same reckoning as on the player's own turn (nobody has drawn yet in either)
    old_obs, old_legal = _declaring("AH 9C 7D", divide_when="own_turn")
    old = expect.expected_gains(old_obs, old_legal)
    assert old is not None and [a.kind.value for a in old_legal] == ["content", "draw", "divide"]
    assert old[2] == pytest.approx(gains[0])
    assert max(old[:2]) == pytest.approx(gains[1])  # keeping: the better of content and card


def test_the_heuristic_divides_aces_and_eights_when_asked_before_the_drawing():
    from commerce.families.vingtun.heuristic import vingtun_action

    for second, chosen in (("AH 9C 7D", "divide"), ("9S 9C 7D", "decline"),
                           ("5S 9C 7D", "decline")):
        obs, legal = _declaring(second)
        assert vingtun_action(obs, legal, random.Random(0), 0.5).kind.value == chosen, second
