"""Rulesets: frozen, validated, versioned, cited data, kept in one registry.

Every difference between the Commerce rulesets is an option here, a named field with a
documented meaning. A preset is a :class:`Ruleset` value registered under the id users type
(``peel``, ``hoyle`` ...); any option can be overridden from a preset with
:meth:`Ruleset.with_options`, which validates the result.

>>> peel = find_ruleset("peel")
>>> peel.id, peel.version, peel.pack
('peel', 2, 52)
>>> peel.with_options(flush_compare="high_card").flush_compare
'high_card'
>>> find_ruleset("peel").with_options(pack=33)
Traceback (most recent call last):
...
commerce.errors.RulesetError: option pack: 33 is not one of 52, 32, 12, 80
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any, Final, Self, TypeAlias, TypeVar

from commerce.errors import RulesetError

OptionValue: TypeAlias = bool | int | str
"""The value of one option: a truth value, a number or a word."""

_V = TypeVar("_V", bound=OptionValue)


def option(default: _V, doc: str, choices: tuple[_V, ...] | None = None,
           bounds: tuple[int, int] | None = None) -> _V:
    """A documented option field; *choices* lists the valid values where they are few, and
    *bounds* the smallest and the largest value of a number."""
    return field(default=default, metadata={"doc": doc, "choices": choices, "bounds": bounds})


_opt = option


@dataclass(frozen=True, slots=True, kw_only=True)
class FamilyOptions:
    """The base of every family's own options: a frozen dataclass of documented fields
    (each made with :func:`option`), checked against their choices when built."""

    def __post_init__(self) -> None:
        _check_choices(self)

    @classmethod
    def of(cls, rules: Ruleset) -> Self:
        """*rules*' family options, typed as this class: read a family's options as
        ``TradingOptions.of(rules).trade_cost``, so that type checkers know each option (a
        misspelt one is an error), rather than as ``rules.trade_cost`` (each option is also a
        property of :class:`Ruleset` at run time, untyped to a checker).

        >>> peel = find_ruleset("peel")
        >>> RoundOptions.of(peel).deals_each, RankingOptions.of(peel).ranking
        (1, 'peel')
        >>> RoundOptions.of(find_ruleset("cox"))
        Traceback (most recent call last):
        ...
        commerce.errors.RulesetError: ruleset cox: the cox family's options are CoxOptions, \
not RoundOptions

        :raises RulesetError: when *rules*' options are not of this class (a ruleset of
            another family).
        """
        options = rules.options
        if not isinstance(options, cls):
            raise RulesetError(f"ruleset {rules.id}: the {rules.family} family's options are "
                               f"{type(options).__name__}, not {cls.__name__}")
        return options


def _check_choices(obj: FamilyOptions | Ruleset) -> None:
    """Every option of *obj* among its choices and within its bounds."""
    for f in dataclasses.fields(obj):
        choices = f.metadata.get("choices") if f.metadata else None
        value = getattr(obj, f.name)
        if choices is not None and value not in choices:
            raise RulesetError(
                f"option {f.name}: {_shown(value)} is not one of "
                f"{', '.join(map(str, choices))}"
            )
        bounds = f.metadata.get("bounds") if f.metadata else None
        if bounds is not None and not bounds[0] <= value <= bounds[1]:
            raise RulesetError(f"option {f.name}: {_shown(value)} is not from {bounds[0]} "
                               f"to {bounds[1]}")


@dataclass(frozen=True, slots=True, kw_only=True)
class RankingOptions(FamilyOptions):
    """How three-card hands rank (:mod:`commerce.hands`): for the families that rank them."""

    ranking: str = option(
        "peel",
        "Categories recognised: 'peel' = tricon, sequence, flush, pair, point (pip total of "
        "three cards); 'suit_point' = tricon, sequence, point of two or three cards of one suit; "
        "'no_pair_or_point' = tricon, sequence, flush only.",
        ("peel", "suit_point", "no_pair_or_point"),
    )
    ace_low_sequence: bool = option(True, "A-2-3 of one suit is a sequence.")
    ace_low_sequence_rank: str = option(
        "lowest", "Where A-2-3 ranks among sequences when it is one.", ("lowest", "highest")
    )
    allow_wraparound: bool = option(False, "K-A-2 of one suit is a sequence (no source allows it).")
    flush_compare: str = option(
        "points",
        "How two flushes compare: by pip total then the highest differing card ('points'), or "
        "by the highest differing card ('high_card').",
        ("points", "high_card"),
    )
    pair_kicker: bool = option(True, "Between equal pairs, the odd card decides.")
    void_rank: str = option(
        "void",
        "How hands without a combination compare among themselves (suit_point and "
        "no_pair_or_point rankings): all equal ('void'), or by their cards from the top down "
        "('high_card').",
        ("void", "high_card"),
    )
    four_of_a_kind: bool = option(False, "Four of a kind (made by a pounce) beats every three-card "
                                       "hand.")


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundOptions(RankingOptions):
    """Options of round games of deals with a best hand: the ranking, ties for the best hand,
    a cap on the rounds of a deal, and how many times each player deals."""

    best_tie_rule: str = option(
        "eldest",
        "Who wins a complete tie for best hand: the eldest, with the dealer last ('eldest'); "
        "the dealer first ('dealer_as_eldest'); or the pool split ('split_pool'); or, in the "
        "widow family with token_flow 'stake_from_each', every tied winner is paid "
        "('all_paid', Peel's Old Game).",
        ("eldest", "dealer_as_eldest", "split_pool", "all_paid"),
    )
    max_rounds_per_deal: int = option(
        50,
        "House rule: a deal that reaches this many full rounds ends in a forced showdown with "
        "no stander penalty (0 = unlimited).",
        bounds=(0, 1000),
    )
    deals_each: int = option(
        1, "A session ends when every player has dealt this many times.",
        bounds=(1, 100),
    )


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
    family: str
    """The name of the family whose procedure the engine follows (``trading``, ``widow``,
    ``cox``: see :mod:`commerce.family`)."""
    sources: tuple[str, ...] = ()
    """Where the rules come from: books with edition and page, or published pages (urls)."""
    option_sources: tuple[tuple[str, str], ...] = ()
    """For each option whose value a source decides: (option, source or 'house rule')."""

    # -- table --------------------------------------------------------------------------
    pack: int = _opt(52, "Cards in the pack: 52, or the 32-card piquet pack (A K Q J 10 9 8 7), "
                         "or the 12-card research pack (A K Q, at most 3 players); 80 is Cox's "
                         "patented pack (cox family only).",
                     (52, 32, 12, 80))
    min_players: int = _opt(3, "Fewest players allowed.", bounds=(2, 12))
    max_players: int = _opt(
        12, "Most players allowed (at most 7 with the 32-card pack).",
        bounds=(2, 12),
    )
    direction: str = _opt("left", "Direction of the deal, play and the passing of the deal.",
                          ("left", "right"))

    options: FamilyOptions = field(default_factory=lambda: FamilyOptions())
    """The family's own options (a :class:`FamilyOptions` subclass of the family's); read
    them typed with the class's :meth:`FamilyOptions.of` (``TradingOptions.of(rules)``); at
    run time each is also an attribute of the ruleset (``rules.trade_cost``), which type
    checkers do not know."""

    # -- helpers ------------------------------------------------------------------------
    def __post_init__(self) -> None:
        _check_choices(self)
        if self.min_players < 2 or self.min_players > self.max_players:
            raise RulesetError(
                f"players: min_players {self.min_players} and max_players {self.max_players} "
                "must satisfy 2 <= min <= max"
            )
        limit = {52: 12, 32: 7, 12: 3, 80: 4}[self.pack]
        if self.max_players > limit:
            raise RulesetError(
                f"option max_players: at most {limit} players with the {self.pack}-card pack"
            )
        family = _FAMILY_OPTIONS.get(self.family)
        if family is not None:
            if not isinstance(self.options, family.options_type):
                raise RulesetError(f"ruleset {self.id}: the {self.family} family's options are "
                                   f"{family.options_type.__name__}, not "
                                   f"{type(self.options).__name__}")
            family.validate(self)

    def derive(self, **fields: Any) -> Ruleset:
        """A new ruleset from this one: identity fields (``id``, ``name``, ``sources`` ...) and
        options alike, each option set where it belongs (a preset built from another)."""
        common, own = _split(fields)
        try:
            options = dataclasses.replace(self.options, **own) if own else self.options
            return dataclasses.replace(self, options=options, **common)
        except TypeError as exc:  # an option the family does not have
            raise RulesetError(f"ruleset {self.id}: {exc}") from None

    def with_options(self, **changes: object) -> Ruleset:
        """Return this ruleset with options changed; values may be typed or strings.

        :raises RulesetError: for an unknown option or a bad value, listing the valid ones.
        """
        names = family_option_names(self)
        for name in changes:
            if name not in names:
                what = "is not read by" if name in option_names() else "is unknown to"
                raise RulesetError(
                    f"unknown option {name!r}: it {what} the {self.family} family "
                    f"({self.id}); its options are: {', '.join(names)}"
                )
        typed = {name: _coerce(self, name, value) for name, value in changes.items()}
        if "pack" in typed and "max_players" not in typed and typed["pack"] in (32, 12):
            typed["max_players"] = min(self.max_players, 7 if typed["pack"] == 32 else 3)
            if "min_players" not in typed:
                typed["min_players"] = min(self.min_players, typed["max_players"])
        return self.derive(**typed)

    def changed_options(self) -> dict[str, OptionValue]:
        """The options where this ruleset differs from the registered preset of its id."""
        base = _REGISTRY.get(self.id)
        if base is None:
            return {}
        return {
            name: getattr(self, name)
            for name in family_option_names(self)
            if getattr(self, name) != getattr(base, name)
        }

    @property
    def label(self) -> str:
        """``id@version``, with ``+`` when options differ from the preset."""
        return f"{self.id}@{self.version}" + ("+" if self.changed_options() else "")

    def player_range(self) -> range:
        """Allowed numbers of players."""
        return range(self.min_players, self.max_players + 1)

    def players_phrase(self) -> str:
        """The players it is for, in words: ``3 to 12 players``, or ``2 players`` where it
        is for one number only (the two-player research variants)."""
        if self.min_players == self.max_players:
            return f"{self.min_players} players"
        return f"{self.min_players} to {self.max_players} players"

    def option_source(self, name: str) -> str:
        """The source for option *name* in this preset, or '' if none is recorded."""
        return dict(self.option_sources).get(name, "")


def make_ruleset(options_type: type[FamilyOptions], **fields: Any) -> Ruleset:
    """A ruleset whose family options are *options_type*, from one flat list of fields
    (identity, common options and the family's own), as the presets write them."""
    common, own = _split(fields)
    try:
        return Ruleset(options=options_type(**own), **common)
    except TypeError as exc:
        raise RulesetError(f"ruleset {fields.get('id')!r}: {exc}") from None


def _split(fields: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Flat ruleset fields as (the ruleset's own, the family options')."""
    common = {k: v for k, v in fields.items() if k in _RULESET_FIELDS}
    return common, {k: v for k, v in fields.items() if k not in common}


_IDENTITY: Final = frozenset({"id", "version", "name", "family", "sources", "option_sources",
                              "options"})
_RULESET_FIELDS: Final = frozenset(f.name for f in dataclasses.fields(Ruleset))

COMMON_OPTIONS: Final = frozenset(f.name for f in dataclasses.fields(Ruleset)
                                  if f.name not in _IDENTITY)
"""Options every family reads: the pack, the table's size, the direction of play."""


@dataclass(frozen=True, slots=True)
class _Family:
    options_type: type[FamilyOptions]
    validate: Callable[[Ruleset], None]


_FAMILY_OPTIONS: dict[str, _Family] = {}


def register_family_options(family: str, options_type: type[FamilyOptions],
                            validate: Callable[[Ruleset], None]) -> None:
    """Record a family's own options and its check of them together (called by
    :func:`commerce.family.register_family`)."""
    _FAMILY_OPTIONS[family] = _Family(options_type, validate)
    for f in _fields_of(options_type):
        if f.name not in _RULESET_FIELDS and not hasattr(Ruleset, f.name):
            # rules.<option> reads rules.options.<option> (a C-level getter: the rules read
            # options on every action)
            setattr(Ruleset, f.name, property(attrgetter(f"options.{f.name}"),
                                              doc=str(f.metadata.get("doc", ""))))


def _fields_of(options_type: type[FamilyOptions]) -> tuple[dataclasses.Field[object], ...]:
    return dataclasses.fields(options_type)


def option_names() -> tuple[str, ...]:
    """Names of every option of every registered family (common options first)."""
    names = [f.name for f in dataclasses.fields(Ruleset) if f.name not in _IDENTITY]
    for family in _FAMILY_OPTIONS.values():
        names.extend(f.name for f in _fields_of(family.options_type) if f.name not in names)
    return tuple(names)


def family_option_names(ruleset: Ruleset) -> tuple[str, ...]:
    """The options *ruleset*'s family reads: the common ones, then the family's own.

    >>> "trade_cost" in family_option_names(find_ruleset("peel"))
    True
    >>> "trade_cost" in family_option_names(find_ruleset("cox"))
    False
    """
    common = [f.name for f in dataclasses.fields(Ruleset) if f.name not in _IDENTITY]
    return (*common, *(f.name for f in dataclasses.fields(ruleset.options)))


def _field(name: str) -> dataclasses.Field[object]:
    for f in dataclasses.fields(Ruleset):
        if f.name == name and name not in _IDENTITY:
            return f
    for family in _FAMILY_OPTIONS.values():
        for f in _fields_of(family.options_type):
            if f.name == name:
                return f
    raise RulesetError(_unknown_option(name))


def option_doc(name: str) -> str:
    """The documented meaning of option *name*."""
    f = _field(name)
    bounds = f.metadata.get("bounds")
    doc = str(f.metadata.get("doc", ""))
    return doc if bounds is None else f"{doc} From {bounds[0]} to {bounds[1]}."


def option_bounds(name: str) -> tuple[int, int] | None:
    """The smallest and the largest value of number option *name* (None for the others).

    >>> option_bounds("widow_size"), option_bounds("pack"), option_bounds("pounce")
    ((1, 5), None, None)
    """
    bounds: tuple[int, int] | None = _field(name).metadata.get("bounds")
    return bounds


def option_choices(name: str) -> tuple[OptionValue, ...] | None:
    """Valid values of option *name*, where they are a short list."""
    choices: tuple[OptionValue, ...] | None = _field(name).metadata.get("choices")
    return choices


def cover_values(name: str, seed: int) -> tuple[OptionValue, ...]:
    """The values of option *name* that a test comparing two engines must play, from the
    option's declaration: every choice of an option with choices (both of a true-or-false
    one); a number's least, greatest and default value, and one more drawn from *seed* (the
    same value for the same seed and option). No value comes twice.

    >>> cover_values("flush_compare", seed=1)
    ('points', 'high_card')
    >>> cover_values("pounce", seed=1)
    (False, True)
    >>> least, greatest, default, *drawn = cover_values("widow_size", seed=1)
    >>> (least, greatest, default), all(1 <= v <= 5 for v in drawn)
    ((1, 5, 3), True)
    >>> cover_values("widow_size", seed=1) == cover_values("widow_size", seed=1)
    True

    :raises RulesetError: for an option that declares neither its choices nor its bounds (a
        test could not know what to play).
    """
    f = _field(name)
    choices: tuple[OptionValue, ...] | None = f.metadata.get("choices")
    bounds: tuple[int, int] | None = f.metadata.get("bounds")
    if choices is not None:
        return choices
    if isinstance(f.default, bool):
        return (False, True)
    default = f.default
    if bounds is None or not isinstance(default, int):
        raise RulesetError(f"option {name}: it declares neither choices nor bounds")
    drawn = random.Random(f"{seed}:{name}").randint(*bounds)
    return tuple(dict.fromkeys((bounds[0], bounds[1], default, drawn)))


OptionValues: TypeAlias = tuple[OptionValue, ...] | range | None
"""The values of one option an engine other than the reference plays: a tuple of them, a
range of numbers, or None for every value the option allows."""


def refusal(rules: Ruleset, plays: Mapping[str, OptionValues], engine: str) -> str | None:
    """Why *engine* (for example ``"the compiled kernel"``) does not play *rules*, or None
    when it plays every option: *plays* declares, for each option it plays, the values it
    plays (:data:`OptionValues`); an option it does not name is one it does not know.

    >>> peel = find_ruleset("peel")
    >>> plays = {name: None for name in family_option_names(peel)}
    >>> refusal(peel, plays, "the kernel") is None
    True
    >>> refusal(peel, {**plays, "max_rounds_per_deal": range(1, 1001)}, "the kernel") is None
    True
    >>> refusal(peel.with_options(max_rounds_per_deal=0),
    ...         {**plays, "max_rounds_per_deal": range(1, 1001)}, "the kernel")
    'the kernel does not play option max_rounds_per_deal=0 (it plays 1 to 1000)'
    >>> del plays["direction"]
    >>> refusal(peel, plays, "the kernel")
    "the kernel does not play option direction='left' (it does not know the option)"
    """
    for name in family_option_names(rules):
        value = getattr(rules, name)
        if name not in plays:
            return f"{engine} does not play option {name}={value!r} (it does not know the option)"
        values = plays[name]
        if values is not None and value not in values:
            return f"{engine} does not play option {name}={value!r} (it plays {_phrase(values)})"
    return None


def values_from(name: str, least: int) -> range:
    """The values of number option *name* from *least* to its greatest (for an engine that
    plays all but the least values: :data:`OptionValues`).

    >>> values_from("max_rounds_per_deal", 1)
    range(1, 1001)
    """
    bounds = option_bounds(name)
    if bounds is None:
        raise RulesetError(f"option {name}: it is not a number with bounds")
    return range(least, bounds[1] + 1)


def _phrase(values: tuple[OptionValue, ...] | range) -> str:
    """The values an engine plays, in words."""
    if isinstance(values, range) and values.step == 1 and len(values) > 1:
        return f"{values.start} to {values[-1]}"
    return ", ".join(repr(v) for v in values)


def _unknown_option(name: str) -> str:
    return f"unknown option {name!r}; options are: {', '.join(option_names())}"


def _coerce(ruleset: Ruleset, name: str, value: object) -> OptionValue:
    """Convert *value* (possibly a string from the command line) to option *name*'s type."""
    current = getattr(ruleset, name)
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


def _shown(value: object) -> str:
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
    return iter(list(_REGISTRY.values()))


def resolve(name: str, overrides: Mapping[str, object] | None = None) -> Ruleset:
    """A preset by name with *overrides* applied (the ``--rules X --set k=v`` of the CLI)."""
    base = find_ruleset(name)
    return base.with_options(**overrides) if overrides else base


