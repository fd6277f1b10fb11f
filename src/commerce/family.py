"""The family contract: every hook a ruleset family provides, and the family registry.

A *family* is one procedure of play (the trading games, the widow games, Cox's game). Each
lives in its own package under :mod:`commerce.families` and describes itself with one
:class:`FamilySpec`: its state type, its presets, the rule hooks the engine dispatches to, its
notation and text, the hooks the generic bots use (heuristic, sampler, search), the hooks of
the analyses and of the generic tests. :mod:`commerce.families` registers each family with
:func:`register_family`; nothing is found by building module names from strings, and a missing
or malformed hook is an error at registration, never a silent fallback.

Every application reaches a family's parts through :func:`family_spec` (by family name) or
:func:`spec_of` (for a state):

>>> import commerce  # registers the built-in families
>>> sorted(family_names())
['cox', 'trading', 'vingtun', 'widow']
>>> family_spec("widow").name
'widow'
>>> family_spec("whist")
Traceback (most recent call last):
...
commerce.errors.RulesetError: unknown family 'whist'; families are: cox, trading, vingtun, widow
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from functools import lru_cache
from typing import Any, Generic, NamedTuple, Protocol, TypeVar

from commerce.core import Action, Decision, Event, Outcome, Seat, Transition
from commerce.encoding import Encoding
from commerce.errors import RulesetError
from commerce.presentation import Presentation
from commerce.rules import FamilyOptions, OptionValue, Ruleset, register, register_family_options

__all__ = [
    "DealReader",
    "DealSummary",
    "FamilySpec",
    "GameState",
    "Observation",
    "Preset",
    "SearchHooks",
    "family_names",
    "family_spec",
    "older_version",
    "preset",
    "register_family",
    "spec_of",
]


class GameState(Protocol):
    """What every family's state offers the generic code: its ruleset."""

    @property
    def ruleset(self) -> Ruleset:
        """The ruleset the game is played under."""
        ...


class Observation(Protocol):
    """What every family's observation offers the generic code."""

    @property
    def ruleset(self) -> Ruleset:
        """The ruleset the game is played under."""
        ...

    @property
    def seat(self) -> Seat | None:
        """The seat that observes (None: a spectator or a review)."""
        ...

    @property
    def players(self) -> int:
        """The number of seats at the table."""
        ...

    @property
    def decision(self) -> Decision | None:
        """Who must decide what now (what that seat may know of it)."""
        ...


StateT = TypeVar("StateT")
ObsT = TypeVar("ObsT")

StateSampler = Callable[[random.Random], GameState]
"""Draws one complete state consistent with an observation, with the given RNG."""
class DealSummary(NamedTuple):
    """One finished deal, read from the events."""

    dealer: Seat
    """The dealer of the deal."""
    payoffs: tuple[float, ...]
    """What the deal paid each seat (antes and purchases included), summing to 0; in Cox's
    game the points each seat scored in the hand."""
    winners: tuple[Seat, ...]
    """Who took the pool."""
    categories: tuple[str, ...]
    """Each seat's hand category at the showdown."""
    stander: Seat | None
    """Who stood (knocked), if anyone."""
    end: int
    """Index of the deal's last event in the list read."""


DealReader = Callable[[Ruleset, int, Sequence[Event]], list[DealSummary]]
"""``reader(rules, players, events) -> deals``: a finished game's public events split into
deals, for the analyses (see :mod:`commerce.apps.analysis`)."""


@dataclass(frozen=True, slots=True)
class Preset:
    """A ruleset the family registers, with the other names users may type for it."""

    ruleset: Ruleset
    """The preset."""
    aliases: tuple[str, ...] = ()
    """Other ids accepted by :func:`commerce.rules.find_ruleset`."""
    history: dict[int, dict[str, OptionValue]] = field(default_factory=dict)
    """For each older version of the preset, the options that give its behaviour back
    (records of that version replay with them, see :mod:`commerce.record`)."""


def preset(ruleset: Ruleset, *aliases: str,
           history: dict[int, dict[str, OptionValue]] | None = None) -> Preset:
    """A :class:`Preset` of *ruleset* under its id and *aliases*, with its *history*."""
    return Preset(ruleset, tuple(aliases), dict(history or {}))


def older_version(ruleset: Ruleset, version: int) -> Ruleset | None:
    """The preset *ruleset* as it played in its older *version*, or None if unknown."""
    spec = _FAMILIES.get(ruleset.family)
    for p in spec.presets if spec is not None else ():
        if p.ruleset.id == ruleset.id and version in p.history:
            return dataclasses.replace(ruleset.with_options(**p.history[version]),
                                       version=version)
    return None


BatchPlayouts = Callable[[StateT, Sequence[Action], Seat, int], Sequence[tuple[float, float]]]
"""Compiled playouts (:attr:`SearchHooks.batch`): ``playouts(state, actions, seat, key) ->
[(gain, won), ...]``, one pair for each action."""


@lru_cache(maxsize=64)
def kernel_or_none(hook: Callable[[Ruleset, int], Any], rules: Ruleset, players: int) -> Any:
    """A family's compiled kernel (its ``kernel`` hook, *hook*) for *rules* at *players*
    seats, or None where the kernel refuses them (:class:`RulesetError`): what a search's
    compiled playouts build on. Cached: the kernel's tables are a pure function of the
    arguments, built once per ruleset and table size."""
    try:
        return hook(rules, players)
    except RulesetError:
        return None


@lru_cache(maxsize=64)
def kernel_plays(check: Callable[[Ruleset], None], rules: Ruleset) -> bool:
    """Whether a family's compiled kernel plays *rules*: its *check* (raising
    :class:`RulesetError` for an option it does not play) passes."""
    try:
        check(rules)
    except RulesetError:
        return False
    return True


@dataclass(frozen=True, slots=True, kw_only=True)
class SearchHooks(Generic[StateT, ObsT]):
    """What the generic search bot (:mod:`commerce.bots.search`) may use of a family.

    Every hook sees only what the searching seat may know: an observation (``ObsT``, the
    family's observation type), or states (``StateT``) drawn from one by the family's
    sampler.
    """

    playout: Callable[[StateT, Action, Seat, random.Random], tuple[float, float]]
    """``playout(state, action, seat, rng) -> (gain, won)``: play *action* in a drawn state,
    then on to the end of the deal."""
    belief: Callable[[StateT, Seat], bool] | None = None
    """``belief(state, seat)``: whether a drawn state fits how the other seats played."""
    iterations: int | None = None
    """The family's default budget (playouts per decision), if not the bot's."""
    iterations_by_rules: Callable[[Ruleset], int | None] | None = None
    """A budget for some of the family's rulesets (None: the family's)."""
    candidates: Callable[[ObsT, Sequence[Action]], Sequence[int]] | None = None
    """``candidates(obs, legal) -> indices``: the legal actions worth searching."""
    sampler: Callable[[ObsT], Callable[[random.Random], StateT] | None] | None = None
    """``sampler(obs) -> draw | None``: states as the family believes them to be."""
    reference: Callable[[ObsT, Sequence[Action]], Action] | None = None
    """``reference(obs, legal)``: the heuristic's own choice, kept unless another action is
    clearly better (by *confidence* standard errors)."""
    confidence: float = 2.0
    """How many standard errors an action must gain over *reference* to replace it."""
    fitted: Callable[[ObsT], Callable[[StateT, Action, Seat, random.Random],
                                      tuple[float, float]] | None] | None = None
    """``fitted(obs) -> playout | None``: a playout fitted to how the observation shows the
    other seats play (None: :attr:`playout`)."""
    expected: Callable[[ObsT, Sequence[Action]], Sequence[tuple[float, float]] | None] | None = None
    """``expected(obs, legal) -> [(gain, win), ...] | None``: each action's expected gain and
    chance of winning worked out from the observation (a model of the rest of the deal, no
    playouts), where the family can; None at a decision it does not weigh (then playouts)."""
    batch: Callable[[ObsT], BatchPlayouts[StateT] | None] | None = None
    """``batch(obs) -> playouts | None``: compiled playouts for this observation, where the
    family has them: ``playouts(state, actions, seat, key) -> [(gain, won), ...]`` plays each
    of *actions* from one drawn state with the same random streams (from the 64-bit *key*),
    every seat as :attr:`fitted` (or :attr:`playout`) would; None: the Python playouts."""


@dataclass(frozen=True, slots=True, kw_only=True)
class FamilySpec(Generic[StateT, ObsT]):
    """Everything one family provides, as typed hooks (see ``docs/architecture.md``).

    ``StateT`` is the family's state type and ``ObsT`` its observation type.
    """

    # -- identity --------------------------------------------------------------------------
    name: str
    """The family's name, the value of ``Ruleset.family`` for its rulesets."""
    title: str
    """A line for people, e.g. "trading games: ready money and barter"."""
    state_type: type[StateT]
    """The class of the family's states."""
    observation_type: type[ObsT]
    """The class of the family's observations."""
    presets: tuple[Preset, ...]
    """The rulesets the family registers."""
    options: type[FamilyOptions]
    """The family's own options (a frozen dataclass of documented fields); with the common
    ones, the only options its rulesets accept."""
    validate: Callable[[Ruleset], None]
    """Check a ruleset's family options together (raising RulesetError)."""

    # -- the rules (the engine dispatches to these) -----------------------------------------
    new_game: Callable[[Ruleset, int, Seat], StateT]
    """The state before the first deal: ``new_game(ruleset, players, dealer)``."""
    decision: Callable[[StateT], Decision | None]
    """Who must decide what, or None when the game is over."""
    legal_actions: Callable[[StateT], tuple[Action, ...]]
    """Legal actions in a fixed order (the chance outcomes at a chance decision)."""
    check: Callable[[StateT, Action], None]
    """Raise IllegalActionError with a reason if the action is illegal."""
    apply: Callable[[StateT, Action], Transition]
    """Check, then apply: the successor state and the events."""
    sample_chance: Callable[[StateT, random.Random], Action]
    """Chance's next action, drawn with the driver's RNG."""
    observe: Callable[[StateT, Seat | None], ObsT]
    """What a seat may know (None: a spectator), built from scratch."""
    reveal_all: Callable[[StateT], ObsT]
    """Every hand visible, for reviews of finished games."""
    outcome: Callable[[StateT], Outcome | None]
    """The result of a finished game."""

    # -- notation and text -----------------------------------------------------------------
    format_action: Callable[[Action], str]
    """Action notation, e.g. ``trade TH``."""
    parse_action: Callable[[str], Action]
    """Parse action notation (raising NotationError)."""
    describe_event: Callable[[Event, Sequence[str], Seat | None], str | None]
    """An event in words for a viewer (None: not worth a line)."""
    render: Callable[[ObsT, Sequence[str]], str]
    """An observation as text for the terminal."""
    action_label: Callable[[Action, ObsT], str] | None = None
    """A menu entry in words (default: the notation)."""

    # -- bots -------------------------------------------------------------------------------
    heuristic: Callable[[ObsT, Sequence[Action], random.Random, float], Action]
    """The heuristic bot's choice: ``heuristic(obs, legal, rng, boldness)``."""
    sampler: Callable[[ObsT], StateSampler] | None = None
    """Reads an observation once; returns a drawer of states consistent with it."""
    search: SearchHooks[StateT, ObsT] | None = None
    """The search bot's family hooks (None: generic playouts)."""

    # -- analyses ---------------------------------------------------------------------------
    deal_reader: DealReader | None = None
    """Splits a finished game's events into deals for the analyses."""
    role_name: Callable[[int, int], str] | None = None
    """The name of a place relative to the dealer: ``role_name(position, players)``."""
    unit: str = "stakes"
    """What payoffs count, for reports: stakes, tokens, points."""
    stand_action: Callable[[Ruleset], Action | None] | None = None
    """The action whose threshold ``analyze stand-threshold`` measures (stand, knock), or
    None where a ruleset has neither."""

    # -- the generic tests ----------------------------------------------------------------
    cards_in_play: Callable[[StateT], tuple[int, ...]] | None = None
    """Every card of the pack where it lies (hands, widow, stock ...), for conservation."""
    permute_hidden: Callable[[StateT, Seat, random.Random], StateT] | None = None
    """The state with what *seat* cannot know relabelled at random (other hands, the stock,
    copy numbers): that seat's observation must not change."""

    # -- speed ------------------------------------------------------------------------------
    kernel: Callable[[Ruleset, int], object] | None = None
    """``kernel(rules, players)``: the family's compiled batch kernel (numba), driven by
    :mod:`commerce.compiled`; it refuses an option it does not play (raising RulesetError)."""

    env_kernel: Callable[[Ruleset, int], Any] | None = None
    """``env_kernel(rules, players)``: the family's steppable compiled kernel (numba) behind
    the research API's vector environment (:class:`commerce.rl.vector.CommerceVectorEnv`):
    many games at once, one learning seat against compiled bots. It refuses an option it does
    not play (raising RulesetError); its ``batch(num_envs, seat, policies, boldness, *,
    episode, same_step, record)`` makes the environments (the trading family's is
    :class:`commerce.kernelkit.EnvKernel`). None: the family has
    none."""

    # -- research API -----------------------------------------------------------------------
    env_version: int = 0
    """The version of the family's research environments' behaviour: what a seed deals and
    the steps return. 1 since they step the family's compiled engine (its chance draws other
    cards for a seed than the reference's); the registered Gymnasium ids carry it
    (``commerce/Peel-v1``), the earlier id staying registered with the reference engine."""
    encoding: Encoding | None = None
    """The fixed action space and observation vector of :mod:`commerce.rl`
    (:mod:`commerce.encoding`); None: the family has none."""

    # -- what people see -------------------------------------------------------------------
    presentation: Presentation | None = None
    """Grouped menus and the table as data, for the terminal interfaces (see
    :mod:`commerce.presentation`)."""

    unit_of: Callable[[Ruleset], str] | None = None
    """``unit_of(rules)``: the unit of a deal's payoffs where it differs by ruleset (the
    widow games' tokens or counters); None: :attr:`unit` (see :func:`payoff_unit`)."""
    odds: Callable[[Ruleset], dict[str, object]] | None = None
    """``odds(rules)``: exact chances of what a seat is dealt, for ``commerce odds``, JSON-ready:
    ``{"rules", "title", "total", "counts": {name: count}, "exact": {name: "p/q"}}`` (None:
    the three-card hand categories of :mod:`commerce.odds`)."""

    extras: dict[str, Any] = field(default_factory=dict)
    """Family-specific parts an application may look up by name (documented per family)."""


_FAMILIES: dict[str, FamilySpec[Any, Any]] = {}
_BY_STATE: dict[type, FamilySpec[Any, Any]] = {}

_REQUIRED: tuple[str, ...] = (
    "validate", "new_game", "decision", "legal_actions", "check", "apply", "sample_chance",
    "observe", "reveal_all", "outcome", "format_action", "parse_action", "describe_event",
    "render", "heuristic",
)


def register_family(spec: FamilySpec[StateT, ObsT]) -> FamilySpec[StateT, ObsT]:
    """Register a family and its presets.

    :raises RulesetError: if the name is taken, a required hook is missing or not callable,
        or a preset belongs to another family.
    """
    if not spec.name or spec.name in _FAMILIES:
        raise RulesetError(f"family {spec.name!r} is already registered or has no name")
    names = {f.name for f in fields(spec)}
    for hook in _REQUIRED:
        if hook not in names or not callable(getattr(spec, hook)):
            raise RulesetError(f"family {spec.name}: hook {hook!r} is missing or not callable")
    for hook in ("action_label", "sampler", "deal_reader", "role_name", "cards_in_play",
                 "permute_hidden"):
        value = getattr(spec, hook)
        if value is not None and not callable(value):
            raise RulesetError(f"family {spec.name}: hook {hook!r} is not callable")
    if not isinstance(spec.state_type, type) or not isinstance(spec.observation_type, type):
        raise RulesetError(f"family {spec.name}: state_type and observation_type must be classes")
    for preset in spec.presets:
        if preset.ruleset.family != spec.name:
            raise RulesetError(f"family {spec.name}: preset {preset.ruleset.id!r} belongs to "
                               f"the {preset.ruleset.family} family")
    register_family_options(spec.name, spec.options, spec.validate)
    _FAMILIES[spec.name] = spec
    _BY_STATE[spec.state_type] = spec
    for preset in spec.presets:
        spec.validate(preset.ruleset)
        register(preset.ruleset, *preset.aliases)
    return spec


def family_names() -> tuple[str, ...]:
    """The registered families, in registration order."""
    return tuple(_FAMILIES)


def family_spec(name: str) -> FamilySpec[Any, Any]:
    """The registered family called *name*.

    :raises RulesetError: naming the registered families.
    """
    spec = _FAMILIES.get(name)
    if spec is None:
        raise RulesetError(f"unknown family {name!r}; families are: "
                           f"{', '.join(sorted(_FAMILIES))}")
    return spec


def payoff_unit(rules: Ruleset) -> str:
    """The unit of a deal's payoffs under *rules*: stakes, tokens, counters or points."""
    spec = family_spec(rules.family)
    return spec.unit_of(rules) if spec.unit_of is not None else spec.unit


def spec_of(state: GameState) -> FamilySpec[Any, Any]:
    """The family whose rules *state* follows."""
    spec = _BY_STATE.get(type(state))
    if spec is None:
        spec = family_spec(state.ruleset.family)
    return spec
