"""Golden texts independent of the bots: playthroughs and perft-style counts of every ruleset.

A *playthrough* plays a fixed deal (chance drawn with a fixed seed) and fixed choices (a fixed
pseudo-random index into the legal actions) and writes, after each step, the decision, the
legal actions in notation, the action, the events each seat sees in words and every seat's
observation rendered. A *count* is the number of distinct action sequences from a fixed deal to
each depth (chance fixed by a generator of a fixed seed, made afresh at every chance node;
every choice branched). Both are written only through the engine API and the family contract.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from commerce import engine
from commerce.family import family_spec
from commerce.rules import Ruleset, rulesets

ROOT = Path(__file__).resolve().parent.parent / "golden"
PLAYTHROUGHS = ROOT / "playthroughs"
COUNTS = ROOT / "counts"
STEPS = 16
"""Steps of a playthrough after the first deal."""
NODE_BUDGET = 2_000
"""Counts go one depth deeper while the deepest level has fewer leaves than this."""
MAX_DEPTH = 10


def players_of(rules: Ruleset) -> int:
    """The table size of the golden texts: three where allowed."""
    return min(max(3, rules.min_players), rules.max_players)


def _chance(state: Any) -> Any:
    return engine.sample_chance(state, random.Random(1))


def dealt(rules: Ruleset) -> Any:
    """A new game after its first chance actions (the fixed deal)."""
    state = engine.new_game(rules, players_of(rules))
    while (d := engine.decision(state)) is not None and d.seat is None:
        state = engine.apply(state, _chance(state)).state
    return state


def _render(spec: Any, obs: Any, names: list[str]) -> str:
    try:
        text: str = spec.render(obs, names)
    except Exception as exc:  # noqa: BLE001 - written down so a change shows in the diff
        return f"(render raised {type(exc).__name__}: {exc})"
    return text


def playthrough(rules: Ruleset, steps: int = STEPS) -> str:
    """The playthrough text of *rules*."""
    spec = family_spec(rules.family)
    n = players_of(rules)
    names = [f"seat {i}" for i in range(n)]
    choices = random.Random(2)
    state = engine.new_game(rules, n)
    out = [f"# {rules.id}@{rules.version}, {n} players, dealer 0: chance seed 1 at every "
           f"chance node, choices random.Random(2).randrange(len(legal))", ""]
    for step in range(1, steps + 1):
        d = engine.decision(state)
        if d is None:
            out.append(f"## game over: {engine.outcome(state)}")
            break
        legal = engine.legal_actions(state)
        if d.seat is None:
            action = _chance(state)
            out.append(f"## step {step}: chance ({d.kind.value}), {len(legal)} outcomes")
        else:
            action = legal[choices.randrange(len(legal))]
            out.append(f"## step {step}: seat {d.seat} ({d.kind.value})")
            out.append("legal: " + ", ".join(engine.format_action(state, a) for a in legal))
        out.append(f"action: {engine.format_action(state, action)}")
        transition = engine.apply(state, action)
        state = transition.state
        for seat in range(n):
            seen = engine.visible_events(transition.events, seat)
            words = [w for e in seen if (w := spec.describe_event(e, names, seat)) is not None]
            out.append(f"seat {seat} sees: " + (" | ".join(words) if words else "-"))
        for seat in range(n):
            out.append(f"### seat {seat}'s view")
            out.append(_render(spec, engine.observe(state, seat), names).rstrip())
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def counts(rules: Ruleset, depths: int | None = None) -> list[int]:
    """Distinct action sequences from the fixed deal to depth 1, 2 ... (chance fixed): to
    *depths*, or while the deepest level stays under :data:`NODE_BUDGET` leaves."""
    level = [dealt(rules)]
    out: list[int] = []
    while depths is None or len(out) < depths:
        nxt = []
        for state in level:
            d = engine.decision(state)
            if d is None:
                continue
            actions = [_chance(state)] if d.seat is None else engine.legal_actions(state)
            nxt += [engine.apply(state, a).state for a in actions]
        out.append(len(nxt))
        level = nxt
        if depths is None and (len(nxt) >= NODE_BUDGET or len(out) >= MAX_DEPTH):
            break
    return out


def counts_text(rules: Ruleset, values: list[int]) -> str:
    """The counts file of *rules*."""
    lines = [f"# {rules.id}@{rules.version}, {players_of(rules)} players: action sequences "
             f"from the fixed deal (chance seed 1 at every chance node)"]
    lines += [f"depth {i}: {v}" for i, v in enumerate(values, 1)]
    return "\n".join(lines) + "\n"


def read_counts(path: Path) -> list[int]:
    """The counts stored in a counts file."""
    return [int(line.split(":")[1]) for line in path.read_text().splitlines()
            if line.startswith("depth ")]


def write_all() -> list[str]:
    """Write every playthrough and counts file; their names."""
    PLAYTHROUGHS.mkdir(parents=True, exist_ok=True)
    COUNTS.mkdir(parents=True, exist_ok=True)
    written = []
    for rules in rulesets():
        (PLAYTHROUGHS / f"{rules.id}.txt").write_text(playthrough(rules))
        (COUNTS / f"{rules.id}.txt").write_text(counts_text(rules, counts(rules)))
        written += [f"playthroughs/{rules.id}.txt", f"counts/{rules.id}.txt"]
    return written
