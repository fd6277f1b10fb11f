"""Environment steps per second of the research API, per ruleset and API.

    .venv/bin/python scripts/bench_rl.py                 # 2 s per ruleset and API
    .venv/bin/python scripts/bench_rl.py --seconds 5 --pettingzoo-benchmark

PettingZoo: random masked agents at every seat, one step = one agent's decision (the steps of
finished agents are not counted). Gymnasium: a random masked learner at seat 0 against
``--opponents`` (random by default), one step = one ``env.step`` (the bots' decisions inside it
are not counted). OpenSpiel: random play with chance by its odds, one step = one seat's
action (chance's are not counted). ``--pettingzoo-benchmark`` also runs PettingZoo's own
``performance_benchmark`` (5 s per ruleset) and prints its figures.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import random
import re
import time

import gymnasium
import numpy as np
import pyspiel
from pettingzoo.test import performance_benchmark

import commerce.rl.gym  # noqa: F401  (registers the ids)
from commerce.rl import pettingzoo_env
from commerce.rl.gym import env_id
from commerce.rl.openspiel import game_name
from commerce.rules import find_ruleset, rulesets


def players_of(rules) -> int:
    return min(max(4, rules.min_players), rules.max_players)


def aec_rate(rules, seconds: float) -> tuple[float, int]:
    env = pettingzoo_env(rules.id, players_of(rules))
    rng = random.Random(0)
    steps, episodes, seed = 0, 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=seed)
        seed += 1
        for _agent in env.agent_iter():
            obs, _r, terminated, truncated, _i = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            steps += 1
        episodes += 1
    return steps / (time.perf_counter() - start), episodes


def gym_rate(rules, seconds: float, opponents: str) -> tuple[float, int]:
    env = gymnasium.make(env_id(rules.id), opponents=opponents)
    rng = np.random.default_rng(0)
    steps, episodes, seed = 0, 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        _obs, info = env.reset(seed=seed)
        seed += 1
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _obs, _r, terminated, truncated, info = env.step(action)
            steps += 1
            done = terminated or truncated
        episodes += 1
    return steps / (time.perf_counter() - start), episodes


def spiel_rate(rules, seconds: float) -> tuple[float, int]:
    game = pyspiel.load_game(game_name(rules.id), {"players": players_of(rules)})
    rng = random.Random(0)
    steps, episodes = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                steps += 1
        episodes += 1
    return steps / (time.perf_counter() - start), episodes


def pz_benchmark(rules) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        performance_benchmark(pettingzoo_env(rules.id, players_of(rules)))
    turns = re.search(r"([0-9.]+) turns per second", out.getvalue())
    return f"{float(turns.group(1)):.0f}" if turns else "?"


def main() -> None:
    parser = argparse.ArgumentParser(description="Steps per second of the research API.")
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--opponents", default="random")
    parser.add_argument("--pettingzoo-benchmark", action="store_true")
    parser.add_argument("--rules", default=None, help="comma list of ruleset ids (default: all)")
    args = parser.parse_args()
    chosen = [find_ruleset(x.strip()) for x in args.rules.split(",")] if args.rules else \
        list(rulesets())
    head = f"{'ruleset':18} {'n':>2} {'AEC steps/s':>12} {'deals':>6} " \
           f"{'Gym steps/s':>12} {'deals':>6} {'Spiel steps/s':>13} {'deals':>6}"
    if args.pettingzoo_benchmark:
        head += f" {'PZ turns/s':>11}"
    print(head)
    for rules in chosen:
        aec, aec_eps = aec_rate(rules, args.seconds)
        gym, gym_eps = gym_rate(rules, args.seconds, args.opponents)
        spiel, spiel_eps = spiel_rate(rules, args.seconds)
        line = (f"{rules.id:18} {players_of(rules):>2} {aec:>12.0f} {aec_eps:>6} "
                f"{gym:>12.0f} {gym_eps:>6} {spiel:>13.0f} {spiel_eps:>6}")
        if args.pettingzoo_benchmark:
            line += f" {pz_benchmark(rules):>11}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
