"""Steps per second of the compiled vector environment (:mod:`commerce.rl.vector`).

    PYTHONPATH=src python scripts/bench_vector_env.py                  # peel, 1024 games
    PYTHONPATH=src python scripts/bench_vector_env.py --opponents random --envs 4096 --threads 2
    PYTHONPATH=src python scripts/bench_vector_env.py --rules widow    # a widow game
    PYTHONPATH=src python scripts/bench_vector_env.py --rules widow-mini --episode game

Any ruleset of a family with a steppable kernel (the trading and the widow games); the seats
are four, or the nearest the ruleset allows, unless ``--players`` says.

A random learner at seat 0 of every game: each step its actions are drawn uniformly among the
legal ones from the mask, in numpy (as a learner's sampling would be), then ``env.step`` plays
them and the bots' answers. One env step is one learner decision in one game (the bots' and
chance's actions inside it are not counted). After a warm-up (numba's compilation, cached on
disk), *rounds* rounds of *steps* steps each are timed; the medians are printed: env steps per
second of wall time and per CPU second (``time.process_time``, all threads), for the whole
loop and for ``env.step`` alone, and episodes (deals, or games) ended per second.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import numpy as np

from commerce.rl.vector import CommerceVectorEnv
from commerce.rules import find_ruleset


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", default="peel")
    p.add_argument("--players", type=int, default=None,
                   help="seats (default: four, or the nearest the ruleset allows)")
    p.add_argument("--envs", type=int, default=1024)
    p.add_argument("--opponents", default="heuristic")
    p.add_argument("--episode", default="deal", choices=("deal", "game"))
    p.add_argument("--steps", type=int, default=100, help="steps per timed round")
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--no-copy", action="store_true",
                   help="copy=False: the returned arrays are the env's own")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    if args.players is None:
        rules = find_ruleset(args.rules)
        args.players = min(max(4, rules.min_players), rules.max_players)

    env = CommerceVectorEnv(args.rules, args.players, num_envs=args.envs,
                            opponents=args.opponents, episode=args.episode,
                            threads=args.threads, copy=not args.no_copy, seed=1)
    rng = np.random.default_rng(0)
    shape = (args.envs, env.single_action_space.n)

    def sample(mask: np.ndarray) -> np.ndarray:
        noise = rng.random(shape, dtype=np.float32)
        return np.argmax(np.where(mask == 1, noise + 1.0, noise - 1.0), axis=1)

    t0 = time.perf_counter()
    _obs, info = env.reset()
    for _ in range(3):  # warm-up: numba compiles (or loads its cache)
        _obs, _r, _t, _tr, info = env.step(sample(info["action_mask"]))
    warm_s = time.perf_counter() - t0

    loop_wall, loop_cpu, step_wall, step_cpu, episodes = [], [], [], [], []
    for _ in range(args.rounds):
        inside = inside_cpu = 0.0
        ended = 0
        w0, c0 = time.perf_counter(), time.process_time()
        for _ in range(args.steps):
            actions = sample(info["action_mask"])
            s0, sc0 = time.perf_counter(), time.process_time()
            _obs, _r, terminated, _tr, info = env.step(actions)
            inside += time.perf_counter() - s0
            inside_cpu += time.process_time() - sc0
            ended += int(terminated.sum())
        wall, cpu = time.perf_counter() - w0, time.process_time() - c0
        n = args.envs * args.steps
        loop_wall.append(n / wall)
        loop_cpu.append(n / max(cpu, 1e-9))
        step_wall.append(n / inside)
        step_cpu.append(n / max(inside_cpu, 1e-9))
        episodes.append(ended / wall)
    env.close()
    report = {
        "rules": args.rules, "players": args.players, "envs": args.envs,
        "opponents": args.opponents, "episode": args.episode, "threads": args.threads,
        "copy": not args.no_copy, "rounds": args.rounds, "steps_per_round": args.steps,
        "warm_up_s": round(warm_s, 2),
        "steps_per_s": round(statistics.median(loop_wall)),
        "steps_per_cpu_s": round(statistics.median(loop_cpu)),
        "env_step_only_per_s": round(statistics.median(step_wall)),
        "env_step_only_per_cpu_s": round(statistics.median(step_cpu)),
        "episodes_per_s": round(statistics.median(episodes)),
    }
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"{args.rules}, {args.players} seats, {args.envs} games, learner random (masked, "
          f"numpy) against {args.opponents}, {args.episode} episodes, {args.threads} "
          f"thread(s); medians of {args.rounds} rounds of {args.steps} steps "
          f"(warm-up {report['warm_up_s']} s)")
    print(f"  whole loop:      {report['steps_per_s']:>12,} env steps/s   "
          f"{report['steps_per_cpu_s']:>12,} per CPU s   "
          f"({report['steps_per_s'] * 60 / 1e6:.1f} M a minute)")
    print(f"  env.step alone:  {report['env_step_only_per_s']:>12,} env steps/s   "
          f"{report['env_step_only_per_cpu_s']:>12,} per CPU s")
    print(f"  episodes ended:  {report['episodes_per_s']:>12,} per s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
