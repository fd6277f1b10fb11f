"""The hint for the decision at hand, for the plain interface and the table: the search bot's
estimates, or a learned model's policy (``commerce play --hint learned:model=NAME``).

Each move is rated by the search bot from the player's observation only: it plays the move
out to the end of the deal many times, against hands drawn to fit what the player may know,
and reports the mean gain, the 95% margin of that mean over its playouts, the spread (standard
deviation) of single playouts, and how often the player won the deal. Moves rated alike (the
widow game's many exchanges that all keep a winning hand) share one row.

>>> from commerce.bots.search import Estimate
>>> rows = hint_lines(["stand", "trade 7♠", "trade 9♦"],
...                   [Estimate(0.5, 0.6, 0.1, 100), Estimate(-0.2, 0.3, 0.05, 400),
...                    Estimate(-0.2, 0.3, 0.05, 400)], 0, "gain words", "deal")
>>> for line in rows.splitlines()[-3:]:
...     print(line)
  1)   stand    +0.50 ±0.20  sd 1.00  win  60%  100 runs  <- best
  2-3) 2 moves  -0.20 ±0.10  sd 1.00  win  30%  400+ runs
      trade 7♠; trade 9♦

A learned model (:class:`commerce.bots.learned.LearnedBot`) gives no estimates of gain: its
hint is its choice, first, then every legal move with how often its policy plays it.

>>> print(learned_lines(["stand", "trade 7♠", "trade 9♦"], [0.3, 0.62, 0.08], 1,
...                     "peel-s1", width=60))
The learned player peel-s1's choice comes first. Each figure
is how often its policy plays the move: the probability its
trained network gives the move (at the table the learned
player always plays its choice). These are not the search
bot's estimates of gain.
  2) trade 7♠ plays this  62% of the time  <- its choice
  1) stand    plays this  30% of the time
  3) trade 9♦ plays this   8% of the time
"""

from __future__ import annotations

import math
import random
import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING

from commerce.bots.search import Estimate
from commerce.errors import CommerceError

if TYPE_CHECKING:
    from commerce.bots.learned import LearnedBot
    from commerce.core import Action
    from commerce.driver import Driver

__all__ = ["HINT_MS", "hint_lines", "hint_text", "hinter", "learned_lines", "numbers"]

HINT_MS = 2500.0
"""The wall-time cap of a hint's search, in milliseconds: the budget (which grows with the
number of legal moves) stops there, so that the figures come within about 3 s, as the search
bot's own decisions stop at :data:`commerce.bots.search.CAP_MS`."""


def numbers(indexes: Sequence[int]) -> str:
    """Menu numbers (from 1) of *indexes*, runs joined: ``1-3, 5``.

    >>> numbers([0, 1, 2, 4])
    '1-3, 5'
    """
    out: list[str] = []
    run: list[int] = []
    for i in [*indexes, -2]:
        if run and i == run[-1] + 1:
            run.append(i)
            continue
        if run:
            out.append(str(run[0] + 1) if len(run) == 1 else f"{run[0] + 1}-{run[-1] + 1}")
        run = [i]
    return ", ".join(out)


def _stats(e: Estimate) -> str:
    if e.samples == 0:  # worked out, not played out
        return f"{e.value:+6.2f} {'worked out':<15} win {e.win:4.0%}"
    margin = f"±{1.96 * e.stderr:.2f}" if math.isfinite(e.stderr) else "±?"
    spread = e.stderr * math.sqrt(e.samples) if math.isfinite(e.stderr) else math.nan
    sd = f"sd {spread:.2f}" if math.isfinite(spread) else "sd ?"
    return f"{e.value:+6.2f} {margin:<6} {sd:<8} win {e.win:4.0%}"


def hint_lines(labels: Sequence[str], estimates: Sequence[Estimate], best: int,
               gain: str, deal: str, width: int = 80) -> str:
    """The hint as lines of at most *width* columns: a row per move, or per group of moves
    rated alike (equal to two decimals, and the same chance to win)."""
    groups: dict[tuple[str, str], list[int]] = {}
    for i, e in enumerate(estimates):
        groups.setdefault((f"{e.value:+.2f}", f"{e.win:.0%}"), []).append(i)
    if all(e.samples == 0 for e in estimates):
        text = (f"The search bot's reckoning: the {gain}, worked out from the chances of the "
                f"unseen cards, not played out; win: your chance to come out of the {deal} "
                f"ahead. It looks ahead to the end of the {deal}, the other seats playing as "
                f"the heuristic bot would.")
    else:
        text = (f"The search bot's estimates: the {gain} (± the 95% margin of that mean; sd: "
                f"the spread of single playouts; runs: the playouts of the move); win: your "
                f"chance to win the {deal}. It looks ahead to the end of the {deal}, playing "
                f"each move out against hands drawn to fit what you may know.")
    lines = textwrap.wrap(text, width)
    names = [labels[m[0]] if len(m) == 1 else f"{len(m)} moves" for m in groups.values()]
    name_width = min(22, max(len(name) for name in names))
    number_width = max(len(numbers(m)) for m in groups.values()) + 1
    for name, members in zip(names, groups.values(), strict=True):
        e = estimates[members[0]]
        mark = "  <- best" if best in members else ""
        count = f"{e.samples} runs" if len(members) == 1 else \
            f"{min(estimates[i].samples for i in members)}+ runs"
        if e.samples == 0:
            count = ""
        head = f"  {numbers(members) + ')':<{number_width}} {name[:name_width]:<{name_width}}"
        lines.append(f"{head} {_stats(e)}  {count}{mark}")
        if len(members) > 1:
            lines += textwrap.wrap("; ".join(labels[i] for i in members), width,
                                   initial_indent="      ", subsequent_indent="      ")
    return "\n".join(lines)


def _share(chance: float) -> str:
    """A probability as a percentage of four characters (``<1%`` for one above 0 that would
    round to 0%)."""
    text = f"{chance:4.0%}"
    return " <1%" if chance > 0 and text.strip() == "0%" else text


def learned_lines(labels: Sequence[str], chances: Sequence[float], best: int, model: str,
                  width: int = 80) -> str:
    """A learned model's hint as lines of at most *width* columns: its choice (*best*, an
    index of *labels*) first, then each other move by how often its policy plays it
    (*chances*, from :meth:`commerce.bots.learned.LearnedBot.policy`), each with its menu
    number."""
    text = (f"The learned player {model}'s choice comes first. Each figure is how often its "
            f"policy plays the move: the probability its trained network gives the move (at "
            f"the table the learned player always plays its choice). These are not the search "
            f"bot's estimates of gain.")
    lines = textwrap.wrap(text, width)
    order = sorted(range(len(labels)), key=lambda i: (i != best, -chances[i], i))
    name_width = min(22, max(len(label) for label in labels))
    number_width = len(str(len(labels))) + 1
    for i in order:
        mark = "  <- its choice" if i == best else ""
        lines.append(f"  {str(i + 1) + ')':<{number_width}} {labels[i][:name_width]:<{name_width}} "
                     f"plays this {_share(chances[i])} of the time{mark}")
    return "\n".join(lines)


def hinter(spec: str, rules: str, players: int) -> LearnedBot | None:
    """The bot whose hints ``commerce play`` gives, from ``--hint`` *spec*: None for the
    search bot (``search``), else the learned model of ``learned:model=NAME``, checked to
    play ruleset *rules* (its id) with *players* seats.

    >>> hinter("search", "peel", 4) is None
    True
    >>> hinter("heuristic", "peel", 4)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    commerce.errors.CommerceError: --hint: search or learned:model=NAME, not 'heuristic'

    :raises CommerceError: in one sentence, for another bot, a model not found (or PyTorch
        missing), or a model of other rules or seats.
    """
    from commerce.bots import make_bot
    from commerce.bots.learned import LearnedBot

    text = spec.strip()
    name = text.partition(":")[0].strip().lower()
    if name == "search" and text.lower() == "search":
        return None
    if name != "learned":
        raise CommerceError(f"--hint: search or learned:model=NAME, not {text[:40]!r}")
    try:
        bot = make_bot(text)
        if not isinstance(bot, LearnedBot):
            raise CommerceError("the learned bot is not the learned model")
        bot.check_table(rules, players)
    except CommerceError as exc:
        raise CommerceError(f"--hint {text[:60]}: {exc}") from None
    return bot


def hint_text(driver: Driver, seat: int, legal: Sequence[Action], labels: Sequence[str],
              width: int = 80, ms: float | None = HINT_MS,
              learned: LearnedBot | None = None) -> str:
    """The search bot's view of each legal action, from the player's observation only: the
    search stops drawing states at *ms* milliseconds of wall time (None: at its budget only).
    With *learned* (a :class:`commerce.bots.learned.LearnedBot`, from :func:`hinter`), that
    model's policy instead (:func:`learned_lines`).

    :raises commerce.errors.CommerceError: where the family has no search bot, or the model
        cannot read this table.
    """
    from commerce import engine

    if learned is not None:
        chances, best = learned.policy(engine.observe(driver.state, seat), legal)
        return learned_lines(labels, chances, best, learned.model, width)
    from commerce.bots.search import best_index, default_iterations, search_hint
    from commerce.family import family_spec

    obs = engine.observe(driver.state, seat)
    rng = random.Random(f"hint/{driver.seed}/{len(driver.actions)}")
    # 0.8 of the bot's default budget per legal action (400 each in the trading games)
    budget = default_iterations(driver.rules.family, driver.rules) * 4 * len(legal) // 5
    estimates = [e for _, e in search_hint(obs, legal, rng, iterations=budget, ms=ms)]
    present = family_spec(driver.rules.family).presentation
    gain = "expected change of your stakes by the end of the deal"
    deal = "deal"
    if present is not None:
        gain, deal = present.gain_words, present.deal_word
    return hint_lines(labels, estimates, best_index(estimates), gain, deal, width)
