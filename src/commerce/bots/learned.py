"""The learned bot: a policy network trained by ``commerce train``, played greedily.

A model is two files in a models directory: ``NAME.pt``, the network's weights (a PyTorch
``state_dict``, loaded with ``torch.load(weights_only=True)``: tensors only, never a pickled
object), and ``NAME.json``, its configuration (:class:`ModelConfig`: the ruleset and seats it
was trained for, the sizes of its layers). The directory is ``$COMMERCE_MODELS`` where set,
else ``~/.local/share/commerce/models``; a model is asked for by *name* only
(``learned:model=NAME``), a plain name of letters, digits, ``_``, ``.`` and ``-``, never a path.

The bot reads only its seat's observation: the family's encoding of it (:mod:`commerce.encoding`,
the vector the research API gives), squashed by :func:`features`, through the network; of the
legal actions it plays the one of highest score (greedy, so the same observation always gets
the same action). PyTorch is an optional extra (``pip install 'commerce[learn]'``); without it
the bot says so.

>>> check_model_name("peel-1")
'peel-1'
>>> check_model_name("../etc/passwd")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
commerce.errors.CommerceError: model name '../etc/passwd': ...
"""

from __future__ import annotations

import json
import os
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from commerce.core import Action
from commerce.errors import CommerceError

if TYPE_CHECKING:
    import torch

    from commerce.family import Observation

__all__ = ["LEARN_EXTRA", "MODELS_ENV", "LearnedBot", "ModelConfig", "Network",
           "check_model_name", "features", "greedy", "load_model", "models_dir", "need_torch",
           "read_config", "save_model"]

MODELS_ENV = "COMMERCE_MODELS"
"""The environment variable naming the models directory."""

LEARN_EXTRA = "pip install 'commerce[learn]'"
"""What installs PyTorch and sb3-contrib."""

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")


def check_model_name(name: str) -> str:
    """*name* if it is a plain model name (no path: letters, digits, ``_.-``, not starting
    with a dot, at most 64 characters).

    :raises CommerceError: otherwise.
    """
    if not isinstance(name, str) or not _NAME.fullmatch(name) or ".." in name:
        raise CommerceError(f"model name {str(name)[:70]!r}: a model is named by letters, "
                            "digits, '_', '.' and '-' (not a path)")
    return name


def models_dir() -> Path:
    """The directory models are found in: ``$COMMERCE_MODELS``, else
    ``~/.local/share/commerce/models``."""
    where = os.environ.get(MODELS_ENV)
    if where:
        return Path(where)
    return Path.home() / ".local" / "share" / "commerce" / "models"


def need_torch() -> Any:
    """The ``torch`` module.

    :raises CommerceError: in one sentence, where PyTorch is not installed.
    """
    try:
        import torch
    except ImportError:
        raise CommerceError(f"learned players need PyTorch, an optional extra: "
                            f"{LEARN_EXTRA}") from None
    return torch


@dataclass(frozen=True, slots=True)
class ModelConfig:
    """What a model was trained for and the shape of its network (``NAME.json``)."""

    rules: str
    """The ruleset's id (``peel``)."""
    players: int
    """The seats at the table."""
    observation_size: int
    """The length of the observation vector."""
    num_actions: int
    """The size of the action space."""
    hidden: tuple[int, ...]
    """The widths of the hidden layers (tanh between them)."""
    steps: int = 0
    """The learner's decisions it was trained on."""
    seed: int = 0
    """The training seed."""

    def to_json(self) -> str:
        """The configuration as JSON."""
        return json.dumps({**asdict(self), "hidden": list(self.hidden), "format": 1},
                          indent=1)

    @classmethod
    def from_json(cls, text: str) -> ModelConfig:
        """Read :meth:`to_json`'s form.

        :raises CommerceError: if it is not a model configuration.
        """
        try:
            raw = json.loads(text)
            return cls(rules=str(raw["rules"]), players=int(raw["players"]),
                       observation_size=int(raw["observation_size"]),
                       num_actions=int(raw["num_actions"]),
                       hidden=tuple(int(h) for h in raw["hidden"]),
                       steps=int(raw.get("steps", 0)), seed=int(raw.get("seed", 0)))
        except (ValueError, KeyError, TypeError) as exc:
            raise CommerceError(f"not a model configuration: {exc}") from None


def features(obs: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """The observation squashed into [-1, 1] (counts such as balances would dominate the
    one-hot segments otherwise): each number over the larger of 1 and its size.

    >>> features(np.array([0.5, -3.0, 8.0], np.float32)).tolist()
    [0.5, -1.0, 1.0]
    """
    return np.asarray(obs / np.maximum(np.float32(1.0), np.abs(obs)), np.float32)


class Network:
    """A model's policy network evaluated in numpy: linear layers with tanh between them, one
    score per action (the actor of the trainer's actor-critic, :mod:`commerce.rl.sb3`).

    Its weights are named ``layers.0.weight``, ``layers.0.bias``, ``layers.2.weight`` ... in a
    model's ``state_dict`` (the numbers of a torch ``Sequential`` of linear and tanh layers).
    """

    def __init__(self, layers: Sequence[tuple[npt.NDArray[np.float32],
                                              npt.NDArray[np.float32]]]) -> None:
        self.layers = tuple(layers)

    @classmethod
    def from_state(cls, state: Mapping[str, Any], config: ModelConfig) -> Network:
        """The network of *state* (arrays or tensors by name), checked against *config*.

        :raises CommerceError: if a weight is missing, extra or of the wrong shape.
        """
        sizes = [config.observation_size, *config.hidden, config.num_actions]
        expected: dict[str, tuple[int, ...]] = {}
        for i, (a, b) in enumerate(zip(sizes, sizes[1:], strict=False)):
            expected[f"layers.{2 * i}.weight"] = (b, a)
            expected[f"layers.{2 * i}.bias"] = (b,)
        if set(state) != set(expected):
            raise CommerceError(f"the weights are not those of a network "
                                f"{'-'.join(map(str, sizes))}")
        arrays = {k: np.asarray(v, np.float32) for k, v in state.items()}
        for key, shape in expected.items():
            if arrays[key].shape != shape:
                raise CommerceError(f"weight {key} has shape {arrays[key].shape}, not {shape}")
        return cls([(arrays[f"layers.{2 * i}.weight"], arrays[f"layers.{2 * i}.bias"])
                    for i in range(len(sizes) - 1)])

    def scores(self, obs: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """Each action's score for each row of *obs* (raw observation vectors)."""
        x = features(obs)
        for k, (weight, bias) in enumerate(self.layers):
            x = x @ weight.T + bias
            if k < len(self.layers) - 1:
                x = np.tanh(x)
        return np.asarray(x, np.float32)


def greedy(net: Network, obs: npt.NDArray[np.float32],
           mask: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
    """The legal action of highest score for each row of *obs* (raw observation vectors,
    ``(n, size)``) and *mask* (``(n, num_actions)`` booleans)."""
    scores = np.where(mask, net.scores(obs), -np.inf)
    return np.asarray(np.argmax(scores, axis=1), np.int64)


def save_model(directory: Path, name: str, state: dict[str, torch.Tensor],
               config: ModelConfig) -> Path:
    """Write ``NAME.pt`` (the weights, *state* as :class:`Network` names them) and
    ``NAME.json`` into *directory*; the weights' path."""
    torch = need_torch()
    check_model_name(name)
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{name}.pt"
    torch.save({k: v.detach().clone() for k, v in state.items()}, path)
    (directory / f"{name}.json").write_text(config.to_json() + "\n", encoding="utf-8")
    return path


def read_config(name: str, directory: Path | None = None) -> ModelConfig:
    """The configuration of model *name* (``NAME.json`` in *directory*, default
    :func:`models_dir`): what it plays, read without its weights (nor PyTorch).

    :raises CommerceError: for a name that is not plain, or no configuration of that name.
    """
    about = (models_dir() if directory is None else directory) / f"{check_model_name(name)}.json"
    try:
        text = about.read_text(encoding="utf-8")
    except OSError:
        raise CommerceError(f"no model {name!r} in {about.parent}") from None
    return ModelConfig.from_json(text)


def load_model(name: str, directory: Path | None = None) -> tuple[Network, ModelConfig]:
    """The network and configuration of model *name* in *directory* (default
    :func:`models_dir`), its weights read with ``torch.load(weights_only=True)``.

    :raises CommerceError: for a name that is not plain, a model not found, or files that do
        not make a model.
    """
    check_model_name(name)
    torch = need_torch()
    where = models_dir() if directory is None else directory
    weights, about = where / f"{name}.pt", where / f"{name}.json"
    if not weights.is_file() or not about.is_file():
        raise CommerceError(f"no model {name!r} in {where} (a model is NAME.pt and NAME.json; "
                            f"set {MODELS_ENV} to the directory that holds them)")
    config = ModelConfig.from_json(about.read_text(encoding="utf-8"))
    try:
        state = torch.load(weights, map_location="cpu", weights_only=True)
        if not isinstance(state, dict):
            raise CommerceError("not a state_dict")
        net = Network.from_state({k: v.numpy() for k, v in state.items()}, config)
    except Exception as exc:  # a file that is not these weights: one clear message
        raise CommerceError(f"model {name!r}: its weights do not fit its configuration "
                            f"({str(exc).splitlines()[0][:200] if str(exc) else exc!r})"
                            ) from None
    return net, config


class LearnedBot:
    """Plays a trained model greedily (see the module's docstring).

    :param model: the model's name in the models directory.
    """

    name = "learned"

    def __init__(self, model: str, directory: Path | None = None) -> None:
        from commerce.rules import find_ruleset

        self.net, self.config = load_model(model, directory)
        self.model = model
        self.spec = f"learned:model={model}"
        self._rules = find_ruleset(self.config.rules)

    @classmethod
    def from_options(cls, options: dict[str, str]) -> LearnedBot:
        """Build from spec options: ``model=NAME`` (required)."""
        unknown = set(options) - {"model"}
        if unknown:
            raise CommerceError(f"the learned bot takes model=NAME, not "
                                f"{', '.join(sorted(unknown))}")
        if "model" not in options:
            raise CommerceError("the learned bot needs a model: learned:model=NAME")
        return cls(options["model"])

    def check_table(self, rules: str, players: int) -> None:
        """Refuse a table of ruleset *rules* (its id) and *players* seats other than the one
        the model was trained for.

        :raises CommerceError: in one sentence, naming both.
        """
        if rules != self.config.rules or players != self.config.players:
            raise CommerceError(f"model {self.model!r} plays {self.config.rules} with "
                                f"{self.config.players} players, not {rules} with {players}")

    def scores(self, obs: Observation, legal: Sequence[Action]) -> tuple[npt.NDArray[np.float32],
                                                                 npt.NDArray[np.bool_]]:
        """The observation's vector and the legal actions' mask, as the network reads them.

        :raises CommerceError: if the table is not the one the model was trained for.
        """
        from commerce.encoding import legal_mask
        from commerce.family import family_spec

        rules, players = obs.ruleset, obs.players
        self.check_table(rules.id, players)
        encoding = family_spec(rules.family).encoding
        assert encoding is not None  # the model's family has one (it was trained on it)
        vector = np.asarray(encoding.encode(obs), np.float32)
        if vector.shape != (self.config.observation_size,):
            raise CommerceError(f"model {self.model!r} reads {self.config.observation_size} "
                                f"numbers; this table's options give {vector.shape[0]}")
        mask = np.asarray(legal_mask(encoding, rules, players, legal), np.bool_)
        return vector, mask

    def act(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        """The legal action the network scores highest (*rng* unused: greedy)."""
        from commerce.encoding import int_to_action
        from commerce.family import family_spec

        vector, mask = self.scores(obs, legal)
        index = int(greedy(self.net, vector[None, :], mask[None, :])[0])
        encoding = family_spec(obs.ruleset.family).encoding
        assert encoding is not None
        action = int_to_action(encoding, obs.ruleset, obs.players, index, legal)
        return legal[0] if action is None else action

    def policy(self, obs: Observation, legal: Sequence[Action]) -> tuple[list[float], int]:
        """How often the model's policy plays each of the *legal* actions (their probabilities
        under the network's scores, as it drew its moves in training; they sum to 1), and the
        index in *legal* of the one the bot plays (:meth:`act`: the likeliest).

        Where two legal actions share one integer of the action space, the first of them
        (the one the bot would play) has that integer's probability and the other none.

        :raises CommerceError: if the table is not the one the model was trained for.
        """
        from commerce.family import family_spec

        vector, mask = self.scores(obs, legal)
        logits = np.where(mask, self.net.scores(vector[None, :])[0], -np.inf)
        weights = np.exp(logits - np.max(logits))
        chances = weights / np.sum(weights)
        encoding = family_spec(obs.ruleset.family).encoding
        assert encoding is not None
        indexes = [encoding.action_to_int(obs.ruleset, obs.players, a) for a in legal]
        best = int(np.argmax(logits))
        out: list[float] = []
        for i in indexes:
            out.append(0.0 if i in indexes[:len(out)] else float(chances[i]))
        return out, indexes.index(best)
