"""Regenerate the golden game records in tests/golden/ after an intended change of behaviour.

    PYTHONPATH=src python scripts/regenerate_golden.py

Each golden record is a whole game between fixed bots from a fixed seed. The test suite replays
every record and plays the same game again from the seed; review the diff like code.

It also writes the texts that do not depend on the bots (``tests/harness/golden.py``): a
playthrough of every ruleset in ``tests/golden/playthroughs/`` and its perft-style counts in
``tests/golden/counts/``.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from commerce.bots import make_bot  # noqa: E402
from commerce.driver import play_game  # noqa: E402
from commerce.rules import find_ruleset, rulesets  # noqa: E402

GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "golden"
BOTS = ("heuristic", "random", "heuristic", "random")


def golden_games() -> list[tuple[str, str, int, int]]:
    """(file name, ruleset id, players, seed) of every golden game."""
    games = []
    for rules in rulesets():
        players = max(rules.min_players, min(4, rules.max_players))
        games.append((f"{rules.id}-{players}p-seed1.json", rules.id, players, 1))
    return games


def main() -> int:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for name, rules_id, players, seed in golden_games():
        bots = [make_bot(BOTS[i % len(BOTS)]) for i in range(players)]
        record = play_game(find_ruleset(rules_id), bots, seed=seed)
        record.save(GOLDEN / name)
        print(f"wrote {name}: {len(record.actions)} actions, payoffs {record.payoffs}")
    from tests.harness.golden import write_all

    for name in write_all():
        print(f"wrote {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
