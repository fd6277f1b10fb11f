"""The ruleset options the widow family reads, and its checks of them together."""

from __future__ import annotations

from dataclasses import dataclass

from commerce.errors import RulesetError
from commerce.rules import RoundOptions, Ruleset, option


@dataclass(frozen=True, slots=True, kw_only=True)
class WidowOptions(RoundOptions):
    """The widow family's own options: the widow, exchanges, the end of a deal, tokens and
    the pool.

    Read them typed from a ruleset with :meth:`~commerce.rules.FamilyOptions.of`:

    >>> from commerce.rules import find_ruleset
    >>> WidowOptions.of(find_ruleset("pool")).token_flow
    'lowest_to_pool'
    """

    widow_size: int = option(
        3, "Face-up cards dealt to the widow in the middle (1 to 5).",
        bounds=(1, 5),
    )
    max_exchange_per_turn: int = option(
        3, "Most cards a player may exchange one-for-one with the widow in one turn (1 to 3).",
        bounds=(1, 3),
    )
    pass_locks_out: bool = option(True, "A player who passes may not exchange again that deal.")
    exchange_all_three_locks: bool = option(
        True, "A player who exchanges all three of his cards (in one turn, or the dealer's blind "
              "exchange) may not exchange again that deal."
    )
    end_condition: str = option(
        "knock_final_round",
        "How a widow deal ends: after as many rounds as there are players in the deal "
        "('rounds_eq_players'); when a player knocks, after one final turn for every other "
        "player ('knock_final_round'); or when two players have stood, after one more exchange "
        "for every player who has not passed, or when all have passed ('two_stand'). In every "
        "case the deal also ends when no player may exchange any more.",
        ("rounds_eq_players", "knock_final_round", "two_stand"),
    )
    add_widow_card_each_round: bool = option(
        True, "At the start of every round after the first, one card from the stock is added "
              "face up to the widow (while the stock lasts)."
    )
    dealer_blind_exchange: str = option(
        "1_to_3",
        "The dealer's exchange with the widow before he looks at his hand: one to three of his "
        "cards for widow cards ('1_to_3'); his whole hand for the whole widow or nothing "
        "('all_or_nothing'; he may not exchange again that deal); or none ('none').",
        ("1_to_3", "all_or_nothing", "none"),
    )
    token_flow: str = option(
        "lowest_to_best",
        "Widow-family settlement after each showdown: the best hand takes one token from the "
        "lowest ('lowest_to_best'); the lowest hand puts one counter into the pool "
        "('lowest_to_pool', Pool Commerce); or the best hand receives one stake from every "
        "other player ('stake_from_each', Peel's Old Game). With tokens or counters, a player "
        "who has none left is out of the game.",
        ("lowest_to_best", "lowest_to_pool", "stake_from_each"),
    )
    starting_tokens: int = option(
        3, "Tokens (lives, counters) each player starts with.",
        bounds=(1, 20),
    )
    deals: int = option(
        0,
        "Most deals in a widow-family session (0 = no cap: the session ends when one player is "
        "left with tokens or counters, or, with stakes, when every player has dealt deals_each "
        "times).",
        bounds=(0, 1000),
    )
    pool_entry: int = option(
        3, "Pool Commerce: stakes each player pays into the pool at the start of the game.",
        bounds=(0, 100),
    )
    deal_prize: int = option(
        0, "Pool Commerce: stakes the best hand of each deal takes out of the pool (while it "
           "lasts).",
        bounds=(0, 100),
    )
    buy_a_horse: bool = option(
        False, "Pool Commerce: the first player out of counters may buy one more, once."
    )
    horse_price: int = option(
        1, "Stakes a horse (one counter) costs; they go into the pool.",
        bounds=(0, 100),
    )
    worst_tie_rule: str = option(
        "all_lose",
        "Who loses when several hands tie for lowest: every one of them ('all_lose'), the one "
        "latest in the order of play ('latest_in_rotation_loses'), or nobody ('none'). When "
        "every hand ties, nobody loses.",
        ("all_lose", "latest_in_rotation_loses", "none"),
    )
    no_qualifier_rule: str = option(
        "no_transfer",
        "Ranking 'no_pair_or_point': when no hand holds a tricon, sequence or flush, no token "
        "moves ('no_transfer'), or the hands are ranked as under 'peel' "
        "('fallback_full_ranking').",
        ("no_transfer", "fallback_full_ranking"),
    )
    pounce: bool = option(
        False,
        "Pounce: when the fourth card of a rank reaches the widow, the holder of the other "
        "three may take it at once, out of turn; a card from the stock replaces it (needs "
        "four_of_a_kind).",
    )
    pounce_on_initial_widow: bool = option(
        True, "The fourth card may be pounced on when it is among the widow cards first dealt."
    )
    pounce_after_pass: bool = option(
        True, "A player who has passed, knocked or stood may still pounce."
    )


def validate(rules: Ruleset) -> None:
    """Refuse option values, and combinations, the widow rules cannot play.

    :raises RulesetError: naming the options.
    """
    opts = WidowOptions.of(rules)
    if rules.pack == 80:
        raise RulesetError("option pack: the 80-card pack is for the cox family, which needs it")
    for name in ("max_rounds_per_deal", "starting_tokens", "deals", "pool_entry", "deal_prize",
                 "horse_price"):
        if getattr(rules, name) < 0:
            raise RulesetError(f"option {name}: must not be negative")
    if opts.deals_each < 1:
        raise RulesetError("option deals_each: must be at least 1")
    if not 1 <= opts.widow_size <= 5:
        raise RulesetError("option widow_size: must be from 1 to 5")
    if not 1 <= opts.max_exchange_per_turn <= 3:
        raise RulesetError("option max_exchange_per_turn: must be from 1 to 3")
    if opts.starting_tokens < 1:
        raise RulesetError("option starting_tokens: must be at least 1")
    if opts.pounce and not opts.four_of_a_kind:
        raise RulesetError("option pounce: needs four_of_a_kind=true (a pounced four must "
                           "rank)")
    if opts.best_tie_rule == "split_pool":
        raise RulesetError("option best_tie_rule: 'split_pool' is for the trading family")
    if opts.best_tie_rule == "all_paid" and opts.token_flow != "stake_from_each":
        raise RulesetError("option best_tie_rule: 'all_paid' needs "
                           "token_flow='stake_from_each'")
    if opts.buy_a_horse and opts.token_flow != "lowest_to_pool":
        raise RulesetError("option buy_a_horse: needs token_flow='lowest_to_pool' (a horse "
                           "is bought from the pool)")
    if opts.dealer_blind_exchange == "all_or_nothing" and opts.widow_size != 3:
        raise RulesetError("option dealer_blind_exchange: 'all_or_nothing' needs "
                           "widow_size=3")
    cards = 3 * rules.max_players + opts.widow_size
    if cards > rules.pack:
        raise RulesetError(f"options max_players and widow_size: {cards} cards are dealt, "
                           f"more than the {rules.pack}-card pack")
