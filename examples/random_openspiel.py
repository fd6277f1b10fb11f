"""Random play of a Commerce game through OpenSpiel (explicit chance nodes).

    python examples/random_openspiel.py --rules widow --players 3 --games 5 --seed 1

Chance acts by its listed outcome probabilities, each seat uniformly among its legal actions;
prints each seat's mean return per game (one deal, in the ruleset's unit).
"""

from __future__ import annotations

import argparse
import random

import pyspiel

from commerce.rl.openspiel import game_name


def main(argv: list[str] | None = None) -> list[float]:
    """Play the games; each seat's mean return."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="peel")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    game = pyspiel.load_game(game_name(args.rules), {"players": args.players})
    rng = random.Random(args.seed)
    totals = [0.0] * game.num_players()
    for _ in range(args.games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        totals = [t + r for t, r in zip(totals, state.returns(), strict=True)]
    means = [t / args.games for t in totals]
    for seat, mean in enumerate(means):
        print(f"seat {seat}: {mean:+.3f} per game")
    return means


if __name__ == "__main__":
    main()
