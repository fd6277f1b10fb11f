"""Seeds: a game's default seed is unpredictable, and nothing made from it shows before the end.

A seed fixes every deal, so knowing it is knowing every card: it does not come from the clock,
and neither the banner, the file's name, a resumed game nor its replay shows it until the game
is over.
"""

from __future__ import annotations

import io
import sys

from commerce import engine
from commerce.bots import make_bot
from commerce.cli import main
from commerce.driver import Driver
from commerce.record import GameRecord
from commerce.rules import find_ruleset


def run(capsys, monkeypatch, *argv: str, stdin: str = "") -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_default_seeds_come_from_secrets_not_the_clock(capsys, monkeypatch, tmp_path):
    # Two games started in the same millisecond got the same seed (and so the same cards)
    # when the seed came from the clock.
    monkeypatch.setattr("time.time", lambda: 1_700_000_000.123)
    seeds = []
    for name in ("a.json", "b.json"):
        run(capsys, monkeypatch, "play", "--players", "3", "--save", str(tmp_path / name),
            stdin="q\n")
        seeds.append(GameRecord.load(tmp_path / name).seed)
    assert None not in seeds and seeds[0] != seeds[1]
    peel, table = find_ruleset("peel"), [None] * 3
    assert Driver(peel, table).seed != Driver(peel, table).seed


def test_a_game_in_progress_shows_no_seed_nor_a_name_made_from_it(capsys, monkeypatch,
                                                                  tmp_path):
    monkeypatch.chdir(tmp_path)
    _, out, err = run(capsys, monkeypatch, "play", "--players", "4", stdin="q\n")
    [path] = (tmp_path / "games").glob("*.json")
    seed = GameRecord.load(path).seed
    assert seed is not None
    assert str(seed) not in path.name and "seed" not in path.name
    shown = out + err
    _, out, err = run(capsys, monkeypatch, "play", "--resume", str(path), stdin="q\n")
    shown += out + err
    _, out, err = run(capsys, monkeypatch, "replay", str(path), "--all")
    shown += out + err
    assert str(seed) not in shown and "seed" not in shown.lower()


def test_a_chosen_seed_is_not_shown_either_until_the_end(capsys, monkeypatch, tmp_path):
    path = tmp_path / "g.json"
    _, out, _ = run(capsys, monkeypatch, "play", "--players", "3", "--seed", "90817263",
                    "--save", str(path), stdin="q\n")
    assert "90817263" not in out
    _, out, _ = run(capsys, monkeypatch, "play", "--resume", str(path), stdin="1\n" * 300)
    assert GameRecord.load(path).complete
    before, end = out.split("Final result")
    assert "90817263" not in before and "The seed was 90817263" in end


def test_a_record_without_a_seed_resumes_with_an_unpredictable_one():
    # Resuming a record with no seed used seed 0, so every later card was predictable.
    rules = find_ruleset("peel")
    driver = Driver(rules, [None, make_bot("random"), make_bot("random")], seed=1)
    driver.run()
    record = driver.record()
    seedless = GameRecord(rules=rules, players=3, dealer=record.dealer, seats=record.seats,
                          actions=record.actions)
    bots = [None, make_bot("random"), make_bot("random")]
    seeds = {Driver.resume(seedless, bots).seed for _ in range(2)}
    assert len(seeds) == 2 and 0 not in seeds
    resumed = Driver.resume(seedless, bots)
    assert resumed.record().seed == resumed.seed  # kept, so a later resume goes on alike
    assert engine.decision(resumed.state) == engine.decision(driver.state)
