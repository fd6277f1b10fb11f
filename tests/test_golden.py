"""Golden records: recorded games must replay to the same result and play again identically."""

from __future__ import annotations

from pathlib import Path

import pytest
from scripts.regenerate_golden import BOTS, GOLDEN, golden_games

from commerce import engine
from commerce.bots import make_bot
from commerce.driver import play_game
from commerce.record import GameRecord, replay
from commerce.rules import find_ruleset

GAMES = golden_games()


@pytest.mark.parametrize("name,rules_id,players,seed", GAMES, ids=[g[0] for g in GAMES])
def test_golden_record_replays_and_replays_identically(name, rules_id, players, seed):
    path = GOLDEN / name
    assert path.exists(), f"missing {path}: run scripts/regenerate_golden.py"
    record = GameRecord.load(path)
    state = replay(record)
    assert tuple(engine.outcome(state).payoffs) == record.payoffs
    bots = [make_bot(BOTS[i % len(BOTS)]) for i in range(players)]
    again = play_game(find_ruleset(rules_id), bots, seed=seed)
    assert again.actions == record.actions, "behaviour changed: review, then regenerate"


def test_golden_files_are_all_listed():
    listed = {g[0] for g in GAMES}
    assert {p.name for p in Path(GOLDEN).glob("*.json")} <= listed
