"""The runner (commerce.apps.runner): its two implementations give the same rows for the same
games, the reference one plays the driver's games at the job's seeds, and ``auto`` chooses as
documented."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from commerce import engine, kernelkit
from commerce.apps.runner import (
    COMPILED,
    REFERENCE,
    CompiledRunner,
    DealRow,
    Job,
    Table,
    choose_engine,
    game_seed,
    play_and_read,
    read_deals,
    runner_for,
)
from commerce.bots import make_bot
from commerce.compiled import build_kernel, run_batch
from commerce.errors import CommerceError
from commerce.rules import Ruleset, find_ruleset
from tests.harness.replay import replay_batch_game

BOTS = ("random", "heuristic")


def _rows(table: Table, game: int) -> list[DealRow]:
    """The deal rows of *game* in *table*, the categories by name ("" for none)."""
    deals = table.deals
    assert deals is not None
    names = deals.category_names
    out = []
    for r in np.flatnonzero(deals.game == game).tolist():
        out.append(DealRow(int(deals.dealer[r]), tuple(deals.payoffs[r].tolist()),
                           int(deals.winners[r]),
                           tuple(names[c] if c >= 0 else "" for c in deals.categories[r]),
                           int(deals.decisions[r])))
    return out


def _replayed(rules: Ruleset, players: int, job: Job) -> list[tuple[Any, int, list[DealRow]]]:
    """Each game of *job* as the kernel plays it, replayed action for action through the
    reference engine: its outcome, its player decisions and its deals as the reference reads
    them."""
    batch = run_batch(rules, players=players, games=job.games, seed=job.seed, bots=job.bots,
                      record=True, lineups=job.lineups or None)
    decode = getattr(build_kernel(rules, players), "decode_action", kernelkit.decode_action)
    out = []
    for g in range(job.games):
        state, events, at, decisions = replay_batch_game(rules, players, batch, g, decode)
        assert engine.decision(state) is None, f"game {g} replayed does not end"
        out.append((engine.outcome(state), decisions, read_deals(rules, players, events, at)))
    return out


@pytest.mark.parametrize("rid,options,room", [
    ("peel", {}, None),
    ("trade-and-barter", {"best_tie_rule": "split_pool", "direction": "right"}, None),
    ("pounce", {}, None),
    ("no-pair-or-point", {}, 4),  # sessions longer than 4 deals: played again
    ("cox", {"hands_per_game": 2}, None)],
    ids=["peel", "split-pool-right", "pounce", "no-pair-or-point-room-4", "cox"])
def test_the_compiled_rows_are_the_reference_reading_of_the_same_games(
        rid: str, options: dict[str, str], room: int | None) -> None:
    rules = find_ruleset(rid).with_options(**options)
    job = Job(rules, 4, BOTS, 10, 5, deals=True)
    table = CompiledRunner(room).run(job)
    assert table.engine == "compiled" and table.deals is not None
    longer = 0
    for g, (outcome, decisions, deals) in enumerate(_replayed(rules, 4, job)):
        assert _rows(table, g) == deals, f"game {g}"
        assert table.games.payoffs[g].tolist() == list(outcome.payoffs)
        assert int(table.games.decisions[g]) == decisions
        assert int(table.games.deals[g]) == len(deals)
        assert table.games.lineups[g].tolist() == [0, 1, 0, 1]
        longer += room is not None and len(deals) > room
    assert (longer > 0) == (room is not None)  # the games played again were read whole


def test_the_compiled_rows_with_lineups_are_the_blocks_replayed() -> None:
    rules = find_ruleset("hoyle")
    lineups = ((0, 1, 2, 0), (2, 1, 0, 2))
    job = Job(rules, 4, ("heuristic", "heuristic:boldness=0.9", "random"), 6, 3,
              lineups=lineups, deals=True)
    table = COMPILED.run(job)
    replayed = _replayed(rules, 4, job)
    for g, (outcome, _, deals) in enumerate(replayed):
        assert table.games.lineups[g].tolist() == list(lineups[g % 2])
        assert table.games.payoffs[g].tolist() == list(outcome.payoffs)
        assert _rows(table, g) == deals
    for b in range(3):  # the games of a block are dealt the same first deal by the same dealer
        first, second = replayed[2 * b][2][0], replayed[2 * b + 1][2][0]
        assert first.dealer == second.dealer


def test_the_reference_rows_are_the_drivers_games_at_the_jobs_seeds() -> None:
    rules = find_ruleset("peel")
    job = Job(rules, 3, BOTS, 12, 2, deals=True)
    table = REFERENCE.run(job)
    assert table.engine == "reference" and table.first_call_s is None
    for g in range(job.games):
        bots = [make_bot(BOTS[i % 2]) for i in range(3)]
        played = play_and_read(rules, bots, game_seed(2, g))
        assert table.games.payoffs[g].tolist() == list(played.outcome.payoffs)
        assert int(table.games.decisions[g]) == played.decisions
        assert _rows(table, g) == read_deals(rules, 3, played.events, played.decisions_at)
    assert int(table.games.payoffs.sum()) == 0


def test_the_reference_table_does_not_depend_on_the_processes() -> None:
    job = Job(find_ruleset("pool"), 4, BOTS, 23, 7, deals=True)
    one, two = REFERENCE.run(job), REFERENCE.run(job, jobs=2)
    assert one.deals is not None and two.deals is not None
    for name in ("lineups", "payoffs", "wins", "decisions", "deals", "out_in"):
        assert np.array_equal(getattr(one.games, name), getattr(two.games, name)), name
    for name in ("game", "deal", "dealer", "payoffs", "winners", "categories", "decisions"):
        assert np.array_equal(getattr(one.deals, name), getattr(two.deals, name)), name
    assert one.deals.category_names == two.deals.category_names
    assert list(one.games.counts) == list(two.games.counts) == ["tokens"]
    assert np.array_equal(one.games.counts["tokens"], two.games.counts["tokens"])


def test_auto_chooses_as_documented() -> None:
    peel, cox, vingtun = find_ruleset("peel"), find_ruleset("cox"), find_ruleset("vingt-un")
    assert choose_engine(peel, 4, BOTS, "auto") == ("compiled", "every bot has a compiled policy")
    assert choose_engine(peel, 4, BOTS, "compiled") == ("compiled", "asked for")
    assert choose_engine(peel, 4, BOTS, "reference") == ("reference", "asked for")
    assert choose_engine(peel, 4, ["random", "search"], "auto") == (
        "reference", "bot search has no compiled policy")
    assert choose_engine(vingtun, 4, ["random"], "auto") == (
        "reference", "the vingtun family has no compiled kernel")
    # the kernel only where it reports what the application reads
    assert choose_engine(cox, 4, ["random"], "auto", "stand_samples", "the stand samples") == (
        "reference", "the cox family's kernel does not report the stand samples")
    assert choose_engine(cox, 4, ["random"], "auto", "deal_results", "each deal") == (
        "compiled", "every bot has a compiled policy")
    with pytest.raises(CommerceError, match="^--engine compiled: bot search has no compiled"):
        choose_engine(peel, 4, ["search"], "compiled")
    with pytest.raises(CommerceError, match="--engine must be one of"):
        choose_engine(peel, 4, BOTS, "quick")
    assert runner_for("compiled") is COMPILED and runner_for("reference") is REFERENCE


def test_a_job_refuses_what_it_cannot_play() -> None:
    peel = find_ruleset("peel")
    with pytest.raises(CommerceError, match="at least 1"):
        Job(peel, 4, BOTS, 0, 1)
    with pytest.raises(CommerceError, match="whole blocks"):
        Job(peel, 4, BOTS, 3, 1, lineups=((0, 1, 0, 1), (1, 0, 1, 0)))
    with pytest.raises(CommerceError, match="names a bot"):
        Job(peel, 4, BOTS, 2, 1, lineups=((0, 1, 2, 1),))
