"""The search bot: determinised Monte Carlo over the legal actions, heuristic playouts.

At each decision the bot draws complete states consistent with its observation
(:func:`commerce.determinize.state_sampler`: its own cards, what it saw in barters and trades,
the rest dealt at random where it may lie), and on each drawn state plays every legal action
out with the heuristic bot in every seat (its own included) to the end of the deal. Every
action of one drawn state is played out with the same chance RNG, so the actions are compared
on the same cards (common random numbers). It picks the action with the best mean gain: the
change in its stakes from now to the end of the deal (for a family without a playout of its
own, its payoff at the end of the game).

Where the family has compiled playouts (``SearchHooks.batch``: the trading and the widow
families' kernels), each drawn state's actions are played out there, all at once, by the same
rules and the same heuristic.

The budget is ``iterations`` (playouts per decision, shared among the legal actions; the
default, :func:`default_iterations` of the family, answers within 200 ms here: see
``commerce bench search``) or ``ms`` (wall time
per decision; results then depend on the machine's speed). It sees only the observation, the
legal actions and its RNG, never the state.

>>> make = SearchBot.from_options
>>> make({"iterations": "120"}).iterations
120
>>> make({"depth": "2"})
Traceback (most recent call last):
...
commerce.errors.CommerceError: search bot options are: iterations, ms; not depth
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from commerce import engine
from commerce.core import Action, Seat
from commerce.determinize import state_sampler
from commerce.errors import CommerceError
from commerce.family import GameState, Observation, SearchHooks, family_spec
from commerce.rules import Ruleset

DEFAULT_ITERATIONS = 500
"""Playouts per decision by default, unless the family registers its own with its playout
(see :func:`default_iterations`, and ``commerce bench search`` for the timings)."""

Playout = Callable[[GameState, Action, Seat, random.Random], tuple[float, float]]
"""``playout(state, action, seat, rng) -> (gain, won)``: play *action* in *state*, then
play on to the end of the deal; *gain* is the seat's result from now, *won* 1.0 if it won."""

Belief = Callable[[GameState, Seat], bool]
"""``belief(state, seat) -> bool``: whether a drawn state fits how the other seats played."""

Candidates = Callable[[Observation, Sequence[Action]], Sequence[int]]
"""``candidates(obs, legal) -> indices``: the legal actions worth searching (at least one)."""

Sampler = Callable[[Observation], "Callable[[random.Random], GameState] | None"]
"""``sampler(obs) -> draw | None``: reads the observation once and returns ``draw(rng) ->
state``, drawing states as the family believes them to be (or None: the plain
determinisation of :func:`commerce.determinize.state_sampler` and the belief filter)."""
Reference = Callable[[Observation, Sequence[Action]], Action]
"""``reference(obs, legal) -> action``: the family heuristic's own choice among *legal*."""

BELIEF_TRIES = 8
"""Draws tried per determinisation for one that the family's belief accepts."""
MAX_ITERATIONS = 100_000
"""The largest ``search:iterations=`` (about 200 times the default budget)."""
MAX_MS = 60_000.0
"""The largest ``search:ms=``: a minute per decision."""
CAP_MS = 190.0
"""At the default budget (no ``iterations`` or ``ms`` given), a decision stops drawing states
once the next might end past this many milliseconds (as :func:`search` reckons it), even if
playouts are left: the budget
answers well within 200 ms in most decisions, and the cap keeps the slowest (the start of a
widow deal, a long deal's replays, a busy machine) within it too. Where it acts, the result
depends on the machine's speed."""
FAST_SHARE = 10
"""The fast level (``search-fast``) plays a tenth of the default budget's playouts."""
FAST_CONFIDENCE = 1.0
"""At the fast level, another action replaces the heuristic's own choice only when its paired
gain over it exceeds this many standard errors (families with a ``reference`` hook keep
theirs): with a tenth of the playouts, the best mean among close actions is mostly noise. In
Peel against the heuristic (300 games, seed 1): +0.11 [-0.35, +0.57] a game taking the best
mean, +0.36 [+0.02, +0.70] at 2 standard errors, +0.47 [+0.09, +0.84] at 1."""


def _heuristic_choice(obs: Observation, legal: Sequence[Action]) -> Action:
    """The heuristic bot's choice among *legal* (with a fixed RNG)."""
    from commerce.bots.heuristic import HeuristicBot

    return HeuristicBot().act(obs, legal, random.Random(0))


def _hooks(family: str) -> SearchHooks[Any, Any] | None:
    return family_spec(family).search


def default_iterations(family: str, rules: Ruleset | None = None) -> int:
    """The default budget of *family* (of its ruleset *rules*, where the family gives some
    rulesets their own): playouts per decision that answer within 200 ms here."""
    hooks = _hooks(family)
    if hooks is None:
        return DEFAULT_ITERATIONS
    if rules is not None and hooks.iterations_by_rules is not None:
        budget = hooks.iterations_by_rules(rules)
        if budget is not None:
            return budget
    return hooks.iterations if hooks.iterations is not None else DEFAULT_ITERATIONS


def playout_for(family: str) -> Playout:
    """The family's playout (its search hooks), or the generic one."""
    hooks = _hooks(family)
    return hooks.playout if hooks is not None else generic_playout


def generic_playout(state: GameState, action: Action, seat: Seat,
                    rng: random.Random) -> tuple[float, float]:
    """Through the public API: the heuristic bot in every seat to the end of the game.

    The gain is the seat's payoff for the whole game; *won* is 1.0 if no seat did better.
    """
    from commerce.bots.heuristic import HeuristicBot

    bot = HeuristicBot()
    state = engine.apply(state, action).state
    while (d := engine.decision(state)) is not None:
        if d.seat is None:
            a = engine.sample_chance(state, rng)
        else:
            a = bot.act(engine.observe(state, d.seat), engine.legal_actions(state), rng)
        state = engine.apply(state, a).state
    result = engine.outcome(state)
    assert result is not None
    payoffs = result.payoffs
    return float(payoffs[seat]), float(payoffs[seat] == max(payoffs))


class Estimate(NamedTuple):
    """What the search found for one action."""

    value: float
    """Mean gain: the seat's expected change in stakes from now to the end of the deal."""
    win: float
    """Share of playouts in which the seat won the deal."""
    stderr: float
    """Standard error of *value*."""
    samples: int
    """Playouts of this action."""
    edge: float = 0.0
    """Mean gain over the reference action on the drawn states both were played on (0 for
    the reference itself, or without one)."""
    edge_stderr: float = math.inf
    """Standard error of *edge* (infinite with fewer than two paired playouts)."""


def search(obs: Observation, legal: Sequence[Action], rng: random.Random, *,
           iterations: int | None = None,
           ms: float | None = None, halving: bool = True,
           reference: int | None = None) -> list[Estimate]:
    """Estimates for each of *legal* (in order) from the observation *obs* alone.

    *iterations* playouts in all (at least one per action), spent by sequential halving
    (unless *halving* is False): actions that fall in the worse half after a phase get no
    more playouts, and their estimates rest on fewer samples. With *ms*, stop before a drawn
    state whose playouts might end past that many milliseconds (reckoning that they take up
    to twice as long as the last state's; at least one state is drawn), whichever comes first;
    a later state whose playouts run past it after all is abandoned between two playouts and
    counts for nothing, so a decision overruns *ms* by one playout at most.
    With neither, the family's default budget (:func:`default_iterations`).
    With *reference* (an index into *legal*), that action is never dropped by the halving,
    and each estimate's ``edge`` is its mean gain over the reference, paired by drawn state.
    Where the family works the gains out from the observation (``SearchHooks.expected``),
    those are the estimates: no playouts, ``samples`` 0 and no error.
    """
    seat = obs.seat
    if seat is None:
        raise CommerceError("the search bot plays a seat, not a spectator's view")
    family = obs.ruleset.family
    hooks = _hooks(family)
    worked = hooks.expected(obs, legal) if hooks is not None and hooks.expected else None
    if worked is not None:
        base = worked[reference][0] if reference is not None else 0.0
        return [Estimate(g, w, 0.0, 0, g - base if reference is not None else 0.0, 0.0)
                for g, w in worked]
    playout = playout_for(family)
    fitted = hooks.fitted(obs) if hooks is not None and hooks.fitted is not None else None
    if fitted is not None:
        playout = fitted
    batch = hooks.batch(obs) if hooks is not None and hooks.batch is not None else None
    belief = hooks.belief if hooks is not None else None
    believed = hooks.sampler if hooks is not None else None
    sampler = believed(obs) if believed is not None else None
    if sampler is None:
        sampler = state_sampler(obs)
    else:
        belief = None
    if not iterations and not ms:
        iterations = default_iterations(family, obs.ruleset)
        ms = CAP_MS
    k = len(legal)
    budget = iterations if iterations else math.inf
    deadline = time.perf_counter() + ms / 1000 if ms else math.inf
    sums = [0.0] * k
    squares = [0.0] * k
    wins = [0.0] * k
    counts = [0] * k
    alive = list(range(k))
    spent = 0
    out_of_time = False
    # Paired differences with the reference action, on the drawn states both were played on.
    diffs = [0.0] * k
    diff_squares = [0.0] * k
    paired = [0] * k
    # Sequential halving: the budget is split into phases; after each, the worse half of the
    # actions still in the running is dropped, so the close calls get the most playouts.
    phases = max(1, math.ceil(math.log2(k))) if iterations and halving else 1
    for phase in range(phases):
        share = (budget - spent) / (phases - phase)
        rounds = max(1, math.floor(share / len(alive))) if iterations else math.inf
        r = 0
        while r < rounds:
            started = time.perf_counter()
            state = sampler(rng)
            if belief is not None:
                tries = 1
                while tries < BELIEF_TRIES and not belief(state, seat):
                    state = sampler(rng)
                    tries += 1
            seed = rng.getrandbits(64)
            played: list[tuple[float, float]] = []
            if batch is not None:  # compiled: every action of the state at once
                played = list(batch(state, [legal[i] for i in alive], seat, seed))
            for i in alive[len(played):]:
                if spent and played and time.perf_counter() >= deadline:
                    break  # a drawn state longer than reckoned: it counts for nothing
                played.append(playout(state, legal[i], seat, random.Random(seed)))
            if len(played) < len(alive):
                out_of_time = True
                break
            gains = [gain for gain, _ in played]
            for i, (gain, won) in zip(alive, played, strict=True):
                sums[i] += gain
                squares[i] += gain * gain
                wins[i] += won
                counts[i] += 1
            if reference is not None:
                base = gains[alive.index(reference)]
                for i, gain in zip(alive, gains, strict=True):
                    d = gain - base
                    diffs[i] += d
                    diff_squares[i] += d * d
                    paired[i] += 1
            spent += len(alive)
            r += 1
            now = time.perf_counter()
            if now + 2 * (now - started) >= deadline:  # the next round might end past it
                out_of_time = True
                break
        if out_of_time:
            break
        if len(alive) > 1 and phase < phases - 1:
            alive.sort(key=lambda i: (-sums[i] / counts[i], i))
            kept = alive[:math.ceil(len(alive) / 2)]
            if reference is not None and reference not in kept:
                kept.append(reference)
            alive = sorted(kept)
    out = []
    for i in range(k):
        n = counts[i]
        mean = sums[i] / n
        var = max(squares[i] / n - mean * mean, 0.0)
        edge, edge_se = 0.0, math.inf
        m = paired[i]
        if m:
            edge = diffs[i] / m
            if m > 1:
                edge_var = max(diff_squares[i] / m - edge * edge, 0.0) * m / (m - 1)
                edge_se = math.sqrt(edge_var / m)
        out.append(Estimate(mean, wins[i] / n, math.sqrt(var / n), n, edge, edge_se))
    return out


def search_hint(obs: Observation, legal: Sequence[Action], rng: random.Random, *,
                iterations: int | None = None,
                ms: float | None = None) -> list[tuple[Action, Estimate]]:
    """What the search bot thinks of each legal action: ``[(action, estimate), ...]``.

    In the order of *legal*; the bot would play the one with the highest ``value`` (the first
    such). ``win`` is its chance of winning the deal after that action (for ``stand``: the
    chance that its hand is the best now).
    """
    return list(zip(legal, search(obs, legal, rng, iterations=iterations, ms=ms), strict=True))


def best_index(estimates: Sequence[Estimate], reference: int | None = None,
               confidence: float = 0.0) -> int:
    """The index of the action the bot plays: among the actions that stayed in the running
    to the end (the most playouts), the highest mean gain; the first on ties. With
    *reference*, that action unless the best one's ``edge`` over it exceeds *confidence*
    times its standard error."""
    most = max(e.samples for e in estimates)
    best = max((i for i, e in enumerate(estimates) if e.samples == most),
               key=lambda i: (estimates[i].value, -i))
    if reference is None or best == reference:
        return best
    e = estimates[best]
    return best if e.edge > confidence * e.edge_stderr else reference


class SearchBot:
    """Determinised Monte Carlo search with heuristic playouts (see the module's text)."""

    name = "search"

    def __init__(self, iterations: int | None = None, ms: float | None = None, *,
                 share: int = 1) -> None:
        """*iterations* and *ms* as for :func:`search`; with neither, the family's default
        budget (:func:`default_iterations`: the family's, larger where its playouts are
        compiled), divided by *share* (:data:`FAST_SHARE` for the fast level)."""
        self.iterations = iterations
        self.ms = ms
        self.share = share
        self.spec = "search"
        self.playouts = 0
        """Playouts of the bot's last decision (0 where it had one choice)."""

    @classmethod
    def from_options(cls, options: dict[str, str]) -> SearchBot:
        """Build from spec options: ``iterations`` (playouts per decision, 1 to
        :data:`MAX_ITERATIONS`) and/or ``ms`` (above 0, at most :data:`MAX_MS`)."""
        unknown = sorted(set(options) - {"iterations", "ms"})
        if unknown:
            raise CommerceError(f"search bot options are: iterations, ms; not {', '.join(unknown)}")
        iterations: int | None = None
        ms: float | None = None
        if "iterations" in options:
            iterations = int(_bounded(options["iterations"], "iterations", MAX_ITERATIONS,
                                      integer=True))
        if "ms" in options:
            ms = _bounded(options["ms"], "ms", MAX_MS, integer=False)
        return cls(iterations, ms)

    @classmethod
    def fast_from_options(cls, options: dict[str, str]) -> SearchBot:
        """The fast level, ``search-fast``: a tenth of the default budget's playouts (no
        options)."""
        if options:
            raise CommerceError(f"search-fast takes no options; not {', '.join(sorted(options))}")
        bot = cls(share=FAST_SHARE)
        bot.name = bot.spec = "search-fast"
        return bot

    def act(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        """The legal action with the best estimated gain."""
        self.playouts = 0
        if len(legal) == 1:
            return legal[0]
        hooks = _hooks(obs.ruleset.family)
        ref = (hooks.reference, hooks.confidence) if hooks and hooks.reference else None
        if ref is None and self.share > 1:
            ref = (_heuristic_choice, FAST_CONFIDENCE)
        favourite = ref[0](obs, legal) if ref is not None else None
        pick = hooks.candidates if hooks is not None else None
        choices = list(legal) if pick is None else [legal[i] for i in pick(obs, legal)]
        if favourite is not None and favourite not in choices:
            choices.append(favourite)
        if len(choices) == 1:
            return choices[0]
        reference = choices.index(favourite) if favourite is not None else None
        iterations = self.iterations
        if self.share > 1 and not iterations and not self.ms:
            budget = default_iterations(obs.ruleset.family, obs.ruleset)
            iterations = max(len(choices), budget // self.share)
        estimates = search(obs, choices, rng, iterations=iterations, ms=self.ms,
                           reference=reference)
        self.playouts = sum(e.samples for e in estimates)
        confidence = ref[1] if ref is not None else 0.0
        return choices[best_index(estimates, reference, confidence)]


def _bounded(text: str, name: str, limit: float, *, integer: bool) -> float:
    """*text* as a number above 0 and at most *limit* (a whole number if *integer*)."""
    kind = f"a whole number from 1 to {limit:,.0f}" if integer else (
        f"a number above 0 and at most {limit:,.0f}")
    shown = repr(text) if len(text) <= 24 else repr(text[:20]) + "..."
    try:
        value = int(text) if integer else float(text)
    except ValueError:
        raise CommerceError(f"search option {name} must be {kind}, not {shown}") from None
    if not 0 < value <= limit:  # also refuses nan
        raise CommerceError(f"search option {name} must be {kind}, not {shown}")
    return value
