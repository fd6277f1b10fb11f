"""The option sets the differential tests play, drawn from each option's declaration.

For a family with a compiled kernel, :func:`option_cases` varies one option at a time from
every preset the kernel plays, over the values :func:`commerce.rules.cover_values` lists (every
choice; a number's least, greatest and default, and one value drawn per run from
:data:`SEED`). :func:`check_case` then holds the kernel to its declaration
(:func:`commerce.rules.refusal` on the family's ``SUPPORTED``): a value it declares is played
and each game replayed through the reference (the family test's ``replay``), any other is
refused by build with that one message, and the ``auto`` engine falls back to the reference.

The drawn values, and the games' streams, come from :data:`SEED`: ``COMMERCE_OPTION_SEED`` in
the environment, or a new seed each run; a failing case names it in a note
(``COMMERCE_OPTION_SEED=... pytest ...`` reruns it).
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from commerce.errors import RulesetError
from commerce.rules import (
    OptionValues,
    Ruleset,
    cover_values,
    family_option_names,
    refusal,
    rulesets,
)

SEED: int = int(os.environ.get("COMMERCE_OPTION_SEED") or random.SystemRandom().randrange(2**31))
"""The seed of this run's drawn option values."""

LINEUP: tuple[str, ...] = ("heuristic", "random")
"""The bots of every case's games: the heuristic checked against the Python one, the random
policy reaching what the heuristic avoids."""

GAMES: int = 1
"""Games each case plays (and replays): one, since the cases are some five hundred; the seed
drawn each run gives each run other games."""


@dataclass(frozen=True, slots=True)
class Case:
    """One option set: a preset with one option changed, and the table it is played at."""

    preset: str
    """The id of the preset."""
    option: str
    """The option changed."""
    value: Any
    """Its value."""
    players: int
    """Seats at the table."""
    also: tuple[tuple[str, Any], ...] = ()
    """Options set besides, to bound a session the case would leave unbounded."""

    def rules(self) -> Ruleset:
        """The ruleset of the case."""
        from commerce.rules import find_ruleset

        return find_ruleset(self.preset).with_options(**dict(self.also),
                                                      **{self.option: self.value})

    def __str__(self) -> str:
        return f"{self.preset}-{self.option}={self.value}" + "".join(
            f"+{name}={value}" for name, value in self.also)


def option_cases(family: str, check: Callable[[Ruleset], None],
                 bound: Callable[[Ruleset], Mapping[str, Any]] | None = None) -> list[Case]:
    """Every one-option change of every preset of *family* the kernel plays (*check* passes
    it), over the option's :func:`~commerce.rules.cover_values`, where the ruleset allows the
    value (the preset's own value is the preset's tests'). A table size option is played at
    its value; every other at four seats, or as near as the ruleset allows. *bound* gives the
    options that bound a ruleset's sessions where they have no bound (nothing where they
    have), set unless the case changes one of them."""
    out: list[Case] = []
    for preset in _presets(family, check):
        for name in family_option_names(preset):
            for value in cover_values(name, SEED):
                if value == getattr(preset, name):
                    continue
                try:
                    rules = preset.with_options(**{name: value})
                except RulesetError:
                    continue  # no such ruleset: the rules refuse it on every engine
                players = value if name in ("min_players", "max_players") else \
                    min(max(4, rules.min_players), rules.max_players)
                also = {} if bound is None else dict(bound(rules))
                also = {} if name in also else also
                out.append(Case(preset.id, name, value, players, tuple(also.items())))
    return out


def _presets(family: str, check: Callable[[Ruleset], None]) -> Iterator[Ruleset]:
    for preset in rulesets():
        if preset.family == family:
            try:
                check(preset)
            except RulesetError:
                continue
            yield preset


@contextmanager
def seed_named(case: Case | str) -> Iterator[None]:
    """Name :data:`SEED` and *case* in any failure inside (so a drawn value reproduces)."""
    try:
        yield
    except BaseException as exc:
        exc.add_note(f"case {case}: rerun with COMMERCE_OPTION_SEED={SEED}")
        raise


def check_case(case: Case, supported: Mapping[str, OptionValues],
               replay: Callable[[Ruleset, int, Any, int, tuple[str, ...]], object],
               games: int = GAMES) -> str:
    """Play *case* as the kernel declares (*supported*): on the kernel, each game replayed
    through the reference by *replay*; or refused with the declaration's message, the
    ``auto`` engine then taking the reference. Returns ``"played"`` or ``"refused"``."""
    from commerce.apps.runner import choose_engine
    from commerce.compiled import build_kernel, run_batch

    with seed_named(case):
        rules = case.rules()
        why = refusal(rules, supported, "the compiled kernel")
        if why is not None:
            try:
                build_kernel(rules, case.players)
            except RulesetError as exc:
                assert str(exc) == f"{why}; use --engine reference"
            else:
                raise AssertionError(f"the kernel built {case}, which it does not declare")
            engine, reason = choose_engine(rules, case.players, list(LINEUP), "auto")
            assert (engine, reason) == ("reference", f"{why}; use --engine reference")
            return "refused"
        result = run_batch(rules, players=case.players, games=games, seed=SEED,
                           bots=list(LINEUP), record=True, threads=1)
        for row in range(games):
            replay(rules, case.players, result, row, LINEUP)
        return "played"
