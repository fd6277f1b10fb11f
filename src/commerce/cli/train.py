"""``commerce train``: self-play PPO with action masks, a model the ``learned`` bot plays.

Needs the optional packages of ``commerce[learn]`` (PyTorch, sb3-contrib); without them the
command says so in one sentence.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from commerce.cli import PLAYERS, int_in, span


def configure_train(p: argparse.ArgumentParser) -> None:
    """Arguments of ``commerce train``."""
    p.add_argument("--rules", default="peel", metavar="ID",
                   help="ruleset id (default peel); a family with a research encoding")
    p.add_argument("--players", type=int_in(*PLAYERS), default=4,
                   help=f"seats at the table, {span(PLAYERS)} within the ruleset's range "
                        "(default 4)")
    p.add_argument("--steps", type=int_in(1, 10**10), default=1_000_000,
                   help="the learner's decisions to train on, rounded up to whole iterations "
                        "(default 1000000)")
    p.add_argument("--minutes", type=float, default=None,
                   help="stop after this many minutes (at the end of an iteration)")
    p.add_argument("--seed", type=int_in(0, 2**31 - 1), default=1,
                   help="training seed (default 1); evaluations use seeds apart from it")
    p.add_argument("--out", required=True, metavar="DIR",
                   help="directory for log.csv, checkpoints/ and the model NAME.pt/NAME.json")
    p.add_argument("--name", default=None,
                   help="the model's name (default RULES-sSEED); play it with "
                        "learned:model=NAME and COMMERCE_MODELS=DIR")
    p.add_argument("--envs", type=int_in(1, 4096), default=16,
                   help="games stepped together (default 16)")
    p.add_argument("--rollout", type=int_in(2, 100_000), default=128,
                   help="decisions per game in one iteration (default 128)")
    p.add_argument("--batch", type=int_in(2, 10**6), default=256,
                   help="minibatch size (default 256)")
    p.add_argument("--epochs", type=int_in(1, 100), default=4,
                   help="passes over each iteration's decisions (default 4)")
    p.add_argument("--hidden", default="128,128",
                   help="hidden layer widths, comma-separated, 1 to 8 of 1 to 4096 "
                        "(default 128,128)")
    p.add_argument("--snapshot-every", type=int_in(1, 10**6), default=5,
                   help="iterations between two snapshots joining the league (default 5)")
    p.add_argument("--league", type=int_in(5, 1000), default=8,
                   help="snapshots kept as opponents, at least 5 (default 8)")
    p.add_argument("--eval-every", type=int_in(1, 10**6), default=10,
                   help="iterations between two evaluations, checkpoints and log rows "
                        "(default 10)")
    p.add_argument("--eval-deals", type=int_in(1, 10**7), default=300,
                   help="deals of each evaluation (default 300)")
    p.add_argument("--threads", type=int_in(1, 256), default=1,
                   help="PyTorch threads (default 1)")
    p.add_argument("--device", default="cpu",
                   help="PyTorch device: cpu (the default), cuda, cuda:N or mps")


def run_train(args: argparse.Namespace) -> int:
    """Train and save the model."""
    from commerce.bots.learned import check_model_name
    from commerce.errors import CommerceError
    from commerce.rl.sb3 import TrainSettings, need_learning, train
    from commerce.rules import find_ruleset

    need_learning()
    rules = find_ruleset(args.rules)
    if args.players not in rules.player_range():
        raise CommerceError(f"{rules.name} is for {rules.min_players} to {rules.max_players} "
                            f"players, not {args.players}")
    try:
        hidden = tuple(int(h) for h in args.hidden.split(","))
    except ValueError:
        raise CommerceError(f"--hidden: widths such as 128,128, not {args.hidden!r}") from None
    if not 1 <= len(hidden) <= 8 or any(not 1 <= h <= 4096 for h in hidden):
        raise CommerceError(f"--hidden: 1 to 8 widths from 1 to 4096, not {args.hidden!r}")
    if args.minutes is not None and not args.minutes > 0:
        raise CommerceError(f"--minutes must be positive, not {args.minutes}")
    if args.name is not None:
        check_model_name(args.name)
    _check_device(args.device)
    if not args.out.strip():
        raise CommerceError("--out: name a directory")
    try:
        Path(args.out).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CommerceError(f"--out {args.out}: cannot make the directory "
                            f"({exc.strerror or exc})") from None
    settings = TrainSettings(rules=rules.id, players=args.players, steps=args.steps,
                             seed=args.seed, envs=args.envs, rollout=args.rollout,
                             batch=args.batch, epochs=args.epochs, hidden=hidden,
                             snapshot_every=args.snapshot_every, league_size=args.league,
                             eval_every=args.eval_every, eval_deals=args.eval_deals,
                             minutes=args.minutes, name=args.name, threads=args.threads,
                             device=args.device)
    train(settings, Path(args.out), progress=lambda line: print(line, flush=True))
    return 0


def _check_device(device: str) -> None:
    """Refuse a device that is not named as PyTorch names them or not on this machine."""
    import torch

    from commerce.errors import CommerceError

    if not re.fullmatch(r"cpu|cuda(:[0-9]{1,3})?|mps", device):
        raise CommerceError(f"--device: cpu, cuda, cuda:N or mps, not {device[:40]!r}")
    if device.startswith("cuda"):
        index = int(device.partition(":")[2] or 0)
        if not torch.cuda.is_available() or index >= torch.cuda.device_count():
            raise CommerceError(f"--device {device}: this machine has no such CUDA device")
    if device == "mps" and not torch.backends.mps.is_available():
        raise CommerceError("--device mps: this machine has no MPS device")
