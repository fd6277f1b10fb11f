"""Rulesets: frozen, validated, versioned, cited data, kept in one registry.

Every difference between the Commerce rulesets is an option here, a named field with a
documented meaning. A preset is a :class:`Ruleset` value registered under the id users type
(``peel``, ``hoyle`` ...); any option can be overridden from a preset with
:meth:`Ruleset.with_options`, which validates the result.

>>> peel = find_ruleset("peel")
>>> peel.id, peel.version, peel.pack
('peel', 1, 52)
>>> peel.with_options(flush_compare="high_card").flush_compare
'high_card'
>>> find_ruleset("peel").with_options(pack=33)
Traceback (most recent call last):
...
commerce.errors.RulesetError: option pack: 33 is not one of 52, 32, 80
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final

from commerce.errors import RulesetError


class Family(StrEnum):
    """The procedure a ruleset's deal follows; the engine picks its turn logic by family."""

    TRADING = "trading"
    """Buy from the dealer for ready money or barter with a neighbour (Peel, Hoyle, T&B)."""
    WIDOW = "widow"
    """Exchange with face-up cards in the middle (Old Game, Pool, the token games)."""
    COX = "cox"
    """Cox's 1925 game: draw, discard, buy, sell out."""


def _opt(default: Any, doc: str, choices: tuple[Any, ...] | None = None,
         bounds: tuple[int, int] | None = None) -> Any:
    """A documented option field; *choices* lists the valid values where they are few, and
    *bounds* the smallest and the largest value of a number."""
    return field(default=default, metadata={"doc": doc, "choices": choices, "bounds": bounds})


@dataclass(frozen=True, slots=True, kw_only=True)
class Ruleset:
    """One Commerce ruleset: identity, sources and every option of play and scoring.

    Options are keyword-only fields; each field's metadata holds its meaning (``doc``) and,
    where there are few, its valid values (``choices``). Construct variants with
    :meth:`with_options`, never by mutating.
    """

    id: str
    """The id users type, e.g. ``peel``."""
    version: int
    """Bumped on any change of behaviour, so records and results stay comparable."""
    name: str
    """Human-readable name."""
    family: Family
    """Which deal procedure the engine follows."""
    sources: tuple[str, ...] = ()
    """Where the rules come from (keys of RULES-DOSSIER.md section 4 with page or url)."""
    option_sources: tuple[tuple[str, str], ...] = ()
    """For each option whose value a source decides: (option, source or 'house rule')."""

    # -- table --------------------------------------------------------------------------
    pack: int = _opt(52, "Cards in the pack: 52, or the 32-card piquet pack (A K Q J 10 9 8 7); "
                         "80 is Cox's patented pack (cox family only).",
                     (52, 32, 80))
    min_players: int = _opt(3, "Fewest players allowed.", bounds=(2, 12))
    max_players: int = _opt(12, "Most players allowed (at most 7 with the 32-card pack).",
                            bounds=(2, 12))
    direction: str = _opt("left", "Direction of the deal, play and the passing of the deal.",
                          ("left", "right"))

    # -- hand ranking -------------------------------------------------------------------
    ranking: str = _opt(
        "peel",
        "Categories recognised: 'peel' = tricon, sequence, flush, pair, point (pip total of "
        "three cards); 'suit_point' = tricon, sequence, point of two or three cards of one suit; "
        "'no_pair_or_point' = tricon, sequence, flush only.",
        ("peel", "suit_point", "no_pair_or_point"),
    )
    ace_low_sequence: bool = _opt(True, "A-2-3 of one suit is a sequence.")
    ace_low_sequence_rank: str = _opt(
        "lowest", "Where A-2-3 ranks among sequences when it is one.", ("lowest", "highest")
    )
    allow_wraparound: bool = _opt(False, "K-A-2 of one suit is a sequence (no source allows it).")
    flush_compare: str = _opt(
        "points",
        "How two flushes compare: by pip total then the highest differing card ('points'), or "
        "by the highest differing card ('high_card').",
        ("points", "high_card"),
    )
    pair_kicker: bool = _opt(True, "Between equal pairs, the odd card decides.")
    void_rank: str = _opt(
        "void",
        "How hands without a combination compare among themselves (suit_point and "
        "no_pair_or_point rankings): all equal ('void'), or by their cards from the top down "
        "('high_card').",
        ("void", "high_card"),
    )
    four_of_a_kind: bool = _opt(False, "Four of a kind (made by a pounce) beats every three-card "
                                       "hand.")

    # -- stakes and the trading deal -----------------------------------------------------
    ante: int = _opt(1, "Stakes each player puts in the pool at the start of a deal.",
                     bounds=(0, 100))
    dealer_ante: int = _opt(2, "Stakes the dealer puts in the pool (his ante included).",
                            bounds=(0, 100))
    trade_cost: int = _opt(1, "Stakes a player pays the dealer to trade for ready money.",
                           bounds=(0, 100))
    dealer_may_trade: bool = _opt(True, "The dealer may trade with the stock on his own turn.")
    dealer_trade_cost: int = _opt(0, "What the dealer pays (to the pool) to trade with the stock.",
                                  bounds=(0, 100))
    may_barter: bool = _opt(True, "Barter with a neighbour is allowed.")
    barter_direction: str = _opt(
        "left", "Which neighbour a barter is offered to.", ("left", "right")
    )
    barter_partner_may_stand: bool = _opt(
        True, "The player offered a barter may refuse it by standing at once."
    )
    barter_return_from_original_hand: bool = _opt(
        True, "The partner gives back one of his own cards, not the card just offered."
    )
    stand_allowed: str = _opt(
        "any_time",
        "When a player may stand: 'any_time' (start of a turn or after his own trade), or "
        "'with_combination' (only holding a tricon, sequence or point; T&B's knock).",
        ("any_time", "with_combination"),
    )
    stand_after_trade: bool = _opt(
        True, "A player may stand right after his own trade or barter in the same turn."
    )
    stander_penalty: str = _opt(
        "each_better_hand",
        "What a beaten stander pays: one stake to each better hand, one to the best hand only, "
        "or nothing.",
        ("each_better_hand", "best_hand_only", "none"),
    )
    dealer_pays_winner: int = _opt(
        1, "Stakes the dealer pays the best hand when someone else wins.", bounds=(0, 100)
    )
    best_tie_rule: str = _opt(
        "eldest",
        "Who wins a complete tie for best hand: the eldest, with the dealer last ('eldest'); "
        "the dealer first ('dealer_as_eldest'); or the pool split ('split_pool'); or, in the "
        "widow family with token_flow 'stake_from_each', every tied winner is paid "
        "('all_paid', Peel's Old Game).",
        ("eldest", "dealer_as_eldest", "split_pool", "all_paid"),
    )
    max_rounds_per_deal: int = _opt(
        50,
        "House rule: a deal that reaches this many full rounds ends in a forced showdown with "
        "no stander penalty (0 = unlimited).",
        bounds=(0, 1000),
    )
    deals_each: int = _opt(1, "A session ends when every player has dealt this many times.",
                           bounds=(1, 100))

    # -- Cox's 1925 game (family cox) ------------------------------------------------------
    hands_per_game: int = _opt(4, "Cox: hands played in a game; the highest total score wins.",
                               bounds=(1, 100))
    buy_priority: str = _opt(
        "turn_order_from_discarder",
        "Cox: who gets a discard several players want to buy: the nearest to the discarder in "
        "turn order (the booklet's 'whoever speaks first' cannot be played turn by turn).",
        ("turn_order_from_discarder",),
    )
    buy_offers: str = _opt(
        "every_seat",
        "Cox: after a discard, ask every other player in turn order whether he buys, those who "
        "may not buy only declining ('every_seat': nobody learns who could have bought), or ask "
        "only those who may buy ('eligible_only': faster, but it shows who holds a pair).",
        ("every_seat", "eligible_only"),
    )
    captain_can_be_fourth: bool = _opt(
        False, "Cox: a Captain may be the fourth card of a four of a kind."
    )
    bank_double_order: str = _opt(
        "after_penalty",
        "Cox: the Bank doubles the score after the clear-hand penalty ('after_penalty': the net "
        "score, so -5 becomes -10) or before it ('before_penalty').",
        ("after_penalty", "before_penalty"),
    )
    bank_counts_for_clear_hand: bool = _opt(
        False, "Cox: the Bank spoils a clear hand like a black card of another suit."
    )
    last_discard_buyable: str = _opt(
        "sell_out_only",
        "Cox: once the supply is empty, the last discard may be bought only to sell out "
        "('sell_out_only'), like any other discard ('yes'), or not at all ('no').",
        ("sell_out_only", "yes", "no"),
    )
    replacement_fallback: str = _opt(
        "any_base_bottom",
        "Cox: when Supply Base No. 4 is empty, a replacement for a Greenback or a fourth card "
        "comes from the bottom of the last base that has cards ('any_base_bottom'), or is not "
        "drawn ('skip').",
        ("any_base_bottom", "skip"),
    )

    # -- the widow deal (family 'widow') ------------------------------------------------
    widow_size: int = _opt(3, "Face-up cards dealt to the widow in the middle.",
                           bounds=(1, 5))
    max_exchange_per_turn: int = _opt(
        3, "Most cards a player may exchange one-for-one with the widow in one turn.",
        bounds=(1, 3),
    )
    pass_locks_out: bool = _opt(True, "A player who passes may not exchange again that deal.")
    exchange_all_three_locks: bool = _opt(
        True, "A player who exchanges all three of his cards (in one turn, or the dealer's blind "
              "exchange) may not exchange again that deal."
    )
    end_condition: str = _opt(
        "knock_final_round",
        "How a widow deal ends: after as many rounds as there are players in the deal "
        "('rounds_eq_players'); when a player knocks, after one final turn for every other "
        "player ('knock_final_round'); or when two players have stood, after one more exchange "
        "for every player who has not passed, or when all have passed ('two_stand'). In every "
        "case the deal also ends when no player may exchange any more.",
        ("rounds_eq_players", "knock_final_round", "two_stand"),
    )
    add_widow_card_each_round: bool = _opt(
        True, "At the start of every round after the first, one card from the stock is added "
              "face up to the widow (while the stock lasts)."
    )
    dealer_blind_exchange: str = _opt(
        "1_to_3",
        "The dealer's exchange with the widow before he looks at his hand: one to three of his "
        "cards for widow cards ('1_to_3'); his whole hand for the whole widow or nothing "
        "('all_or_nothing'; he may not exchange again that deal); or none ('none').",
        ("1_to_3", "all_or_nothing", "none"),
    )
    token_flow: str = _opt(
        "lowest_to_best",
        "Widow-family settlement after each showdown: the best hand takes one token from the "
        "lowest ('lowest_to_best'); the lowest hand puts one counter into the pool "
        "('lowest_to_pool', Pool Commerce); or the best hand receives one stake from every "
        "other player ('stake_from_each', Peel's Old Game). With tokens or counters, a player "
        "who has none left is out of the game.",
        ("lowest_to_best", "lowest_to_pool", "stake_from_each"),
    )
    starting_tokens: int = _opt(3, "Tokens (lives, counters) each player starts with.",
                                bounds=(1, 20))
    deals: int = _opt(
        0,
        "Most deals in a widow-family session (0 = no cap: the session ends when one player is "
        "left with tokens or counters, or, with stakes, when every player has dealt deals_each "
        "times).",
        bounds=(0, 1000),
    )
    pool_entry: int = _opt(
        3, "Pool Commerce: stakes each player pays into the pool at the start of the game.",
        bounds=(0, 100),
    )
    deal_prize: int = _opt(
        0, "Pool Commerce: stakes the best hand of each deal takes out of the pool (while it "
           "lasts).",
        bounds=(0, 100),
    )
    buy_a_horse: bool = _opt(
        False, "Pool Commerce: the first player out of counters may buy one more, once."
    )
    horse_price: int = _opt(1, "Stakes a horse (one counter) costs; they go into the pool.",
                            bounds=(0, 100))
    worst_tie_rule: str = _opt(
        "all_lose",
        "Who loses when several hands tie for lowest: every one of them ('all_lose'), the one "
        "latest in the order of play ('latest_in_rotation_loses'), or nobody ('none'). When "
        "every hand ties, nobody loses.",
        ("all_lose", "latest_in_rotation_loses", "none"),
    )
    no_qualifier_rule: str = _opt(
        "no_transfer",
        "Ranking 'no_pair_or_point': when no hand holds a tricon, sequence or flush, no token "
        "moves ('no_transfer'), or the hands are ranked as under 'peel' "
        "('fallback_full_ranking').",
        ("no_transfer", "fallback_full_ranking"),
    )
    pounce: bool = _opt(
        False,
        "Pounce: when the fourth card of a rank reaches the widow, the holder of the other "
        "three may take it at once, out of turn; a card from the stock replaces it (needs "
        "four_of_a_kind).",
    )
    pounce_on_initial_widow: bool = _opt(
        True, "The fourth card may be pounced on when it is among the widow cards first dealt."
    )
    pounce_after_pass: bool = _opt(
        True, "A player who has passed, knocked or stood may still pounce."
    )

    # -- helpers ------------------------------------------------------------------------
    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            choices = f.metadata.get("choices") if f.metadata else None
            value = getattr(self, f.name)
            if choices is not None and value not in choices:
                raise RulesetError(
                    f"option {f.name}: {_shown(value)} is not one of "
                    f"{', '.join(map(str, choices))}"
                )
            bounds = f.metadata.get("bounds") if f.metadata else None
            if bounds is not None and not bounds[0] <= value <= bounds[1]:
                raise RulesetError(f"option {f.name}: {_shown(value)} is not from {bounds[0]} "
                                   f"to {bounds[1]}")
        if self.min_players < 2 or self.min_players > self.max_players:
            raise RulesetError(
                f"players: min_players {self.min_players} and max_players {self.max_players} "
                "must satisfy 2 <= min <= max"
            )
        if (self.pack == 80) != (self.family is Family.COX):
            raise RulesetError(
                "option pack: the 80-card pack is for the cox family, which needs it"
                if self.pack == 80 else "option pack: the cox family plays with the 80-card pack"
            )
        limit = {52: 12, 32: 7, 80: 4}[self.pack]
        if self.max_players > limit:
            raise RulesetError(
                f"option max_players: at most {limit} players with the {self.pack}-card pack"
            )
        self._check_widow_options()

    def _check_widow_options(self) -> None:
        """Validate the combinations of widow-family options (each one's range is checked
        with the others')."""
        if self.pounce and not self.four_of_a_kind:
            raise RulesetError("option pounce: needs four_of_a_kind=true (a pounced four must "
                               "rank)")
        if self.pounce and self.family is not Family.WIDOW:
            raise RulesetError("option pounce: only widow-family rulesets have a widow")
        if self.family is Family.TRADING and self.best_tie_rule == "all_paid":
            raise RulesetError("option best_tie_rule: 'all_paid' is for the widow family")
        if self.family is not Family.WIDOW:
            return
        if self.best_tie_rule == "split_pool":
            raise RulesetError("option best_tie_rule: 'split_pool' is for the trading family")
        if self.best_tie_rule == "all_paid" and self.token_flow != "stake_from_each":
            raise RulesetError("option best_tie_rule: 'all_paid' needs "
                               "token_flow='stake_from_each'")
        if self.buy_a_horse and self.token_flow != "lowest_to_pool":
            raise RulesetError("option buy_a_horse: needs token_flow='lowest_to_pool' (a horse "
                               "is bought from the pool)")
        if self.dealer_blind_exchange == "all_or_nothing" and self.widow_size != 3:
            raise RulesetError("option dealer_blind_exchange: 'all_or_nothing' needs "
                               "widow_size=3")
        cards = 3 * self.max_players + self.widow_size
        if cards > self.pack:
            raise RulesetError(f"options max_players and widow_size: {cards} cards are dealt, "
                               f"more than the {self.pack}-card pack")

    def with_options(self, **changes: Any) -> Ruleset:
        """Return this ruleset with options changed; values may be typed or strings.

        :raises RulesetError: for an unknown option or a bad value, listing the valid ones.
        """
        typed = {name: _coerce(name, value) for name, value in changes.items()}
        if "pack" in typed and "max_players" not in typed and typed["pack"] == 32:
            typed["max_players"] = min(self.max_players, 7)
        try:
            return dataclasses.replace(self, **typed)
        except TypeError as exc:  # a value of the wrong type reached validation
            raise RulesetError(f"bad option value: {exc}") from None

    def changed_options(self) -> dict[str, Any]:
        """The options where this ruleset differs from the registered preset of its id."""
        base = _REGISTRY.get(self.id)
        if base is None:
            return {}
        return {
            name: getattr(self, name)
            for name in option_names()
            if getattr(self, name) != getattr(base, name)
        }

    @property
    def label(self) -> str:
        """``id@version``, with ``+`` when options differ from the preset."""
        return f"{self.id}@{self.version}" + ("+" if self.changed_options() else "")

    def player_range(self) -> range:
        """Allowed numbers of players."""
        return range(self.min_players, self.max_players + 1)

    def option_source(self, name: str) -> str:
        """The source for option *name* in this preset, or '' if none is recorded."""
        return dict(self.option_sources).get(name, "")


_IDENTITY: Final = frozenset({"id", "version", "name", "family", "sources", "option_sources"})


def option_names() -> tuple[str, ...]:
    """Names of every option (the fields a user may override)."""
    return tuple(f.name for f in dataclasses.fields(Ruleset) if f.name not in _IDENTITY)


def option_doc(name: str) -> str:
    """The documented meaning of option *name*, with its range where it is a number.

    >>> option_doc("deals_each")
    'A session ends when every player has dealt this many times. From 1 to 100.'
    """
    for f in dataclasses.fields(Ruleset):
        if f.name == name:
            bounds = f.metadata.get("bounds")
            doc = str(f.metadata.get("doc", ""))
            return doc if bounds is None else f"{doc} From {bounds[0]} to {bounds[1]}."
    raise RulesetError(_unknown_option(name))


def option_bounds(name: str) -> tuple[int, int] | None:
    """The smallest and the largest value of number option *name* (None for the others).

    >>> option_bounds("widow_size"), option_bounds("pack"), option_bounds("pounce")
    ((1, 5), None, None)
    """
    for f in dataclasses.fields(Ruleset):
        if f.name == name:
            bounds: tuple[int, int] | None = f.metadata.get("bounds")
            return bounds
    raise RulesetError(_unknown_option(name))


def option_choices(name: str) -> tuple[Any, ...] | None:
    """Valid values of option *name*, where they are a short list."""
    for f in dataclasses.fields(Ruleset):
        if f.name == name:
            choices: tuple[Any, ...] | None = f.metadata.get("choices")
            return choices
    raise RulesetError(_unknown_option(name))


def _unknown_option(name: str) -> str:
    return f"unknown option {name!r}; options are: {', '.join(option_names())}"


def _coerce(name: str, value: Any) -> Any:
    """Convert *value* (possibly a string from the command line) to option *name*'s type."""
    if name not in option_names():
        raise RulesetError(_unknown_option(name))
    current = getattr(_DEFAULTS, name)
    if isinstance(current, bool):
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in ("true", "yes", "on", "1"):
            return True
        if text in ("false", "no", "off", "0"):
            return False
        raise RulesetError(f"option {name}: {_shown(value)} is not true or false")
    if isinstance(current, int):
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        try:
            return int(str(value).strip())
        except ValueError:
            choices = option_choices(name)
            valid = f"one of {', '.join(map(str, choices))}" if choices else "an integer"
            raise RulesetError(f"option {name}: {_shown(value)} is not {valid}") from None
    return str(value).strip()


def _shown(value: Any) -> str:
    """*value* for a one-line message: its repr, cut short."""
    text = repr(value)
    return text if len(text) <= 24 else text[:21] + "..."


def parse_overrides(pairs: list[str] | tuple[str, ...]) -> dict[str, str]:
    """Parse ``name=value`` strings (from ``--set``) into a dict.

    >>> parse_overrides(["flush_compare=high_card", "pack=32"])
    {'flush_compare': 'high_card', 'pack': '32'}
    """
    out: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise RulesetError(f"--set {pair!r}: write name=value, e.g. flush_compare=high_card")
        out[name.strip()] = value
    return out


# -- registry ------------------------------------------------------------------------------

_REGISTRY: dict[str, Ruleset] = {}
_ALIASES: dict[str, str] = {}


def register(ruleset: Ruleset, *aliases: str) -> Ruleset:
    """Add a preset to the registry under its id and any *aliases*."""
    if ruleset.id in _REGISTRY:
        raise RulesetError(f"ruleset {ruleset.id!r} is already registered")
    _REGISTRY[ruleset.id] = ruleset
    for alias in aliases:
        _ALIASES[alias] = ruleset.id
    return ruleset


def find_ruleset(name: str) -> Ruleset:
    """Look up a preset by id or alias (case-insensitive, ``_`` and ``-`` alike).

    :raises RulesetError: listing the known ids if *name* is unknown.
    """
    _load_presets()
    key = name.strip().lower().replace("_", "-")
    key = _ALIASES.get(key, key)
    try:
        return _REGISTRY[key]
    except KeyError:
        raise RulesetError(
            f"unknown ruleset {name!r}; rulesets are: {', '.join(sorted(_REGISTRY))}"
        ) from None


def rulesets() -> Iterator[Ruleset]:
    """Every registered preset, in registration order."""
    _load_presets()
    return iter(list(_REGISTRY.values()))


def resolve(name: str, overrides: Mapping[str, Any] | None = None) -> Ruleset:
    """A preset by name with *overrides* applied (the ``--rules X --set k=v`` of the CLI)."""
    base = find_ruleset(name)
    return base.with_options(**overrides) if overrides else base


def _load_presets() -> None:
    if not _REGISTRY:
        import commerce.presets  # noqa: F401  (registers on import)


_DEFAULTS: Final = Ruleset(id="_defaults", version=0, name="defaults", family=Family.TRADING)
