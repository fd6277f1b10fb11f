"""The research API: every ruleset as an environment in the field's own conventions.

- :func:`pettingzoo_env`: a PettingZoo AEC environment, every seat an agent (also the
  versioned modules :mod:`commerce.rl.commerce_v0` and :mod:`commerce.rl.commerce_v1`, as
  PettingZoo's games are made: ``commerce_v1.env("peel")``);
- :mod:`commerce.rl.gym`: a Gymnasium environment, one seat learning against our bots
  (``commerce/Peel-v1`` ..., registered when imported);
- :mod:`commerce.rl.vector`: a Gymnasium vector environment over the compiled kernels, many
  games at once, one seat learning against compiled bots (``commerce/PeelVector-v0`` ...);
- :mod:`commerce.rl.openspiel`: OpenSpiel games with explicit chance (``python_commerce_peel``
  ..., registered when imported);
- the encodings they share: :mod:`commerce.encoding` (each family's ``encode.py``);
- :class:`commerce.rl.table.Table`: the game stepped seat decision by seat decision.

The environments need the optional packages (``pip install 'commerce[rl]'``,
``'commerce[openspiel]'``); importing this package does not. See ``docs/research.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from commerce.rules import find_ruleset

if TYPE_CHECKING:
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

__all__ = ["pettingzoo_env"]


def pettingzoo_env(rules: str, players: int = 4, **options: Any) -> OrderEnforcingWrapper:
    """A PettingZoo AEC environment of ruleset *rules* (an id such as ``"peel"``): the
    :class:`~commerce.rl.aec.CommerceAEC` in PettingZoo's ``OrderEnforcingWrapper``, as
    PettingZoo's classic games are made (``env.unwrapped`` is the environment itself).

    Options: ``version`` (``"commerce_v0"``, the default: agents ``seat_0`` ...;
    ``"commerce_v1"``: ``player_0`` ...), ``episode`` (``"deal"``, the default, or
    ``"game"``), ``illegal`` (``"raise"``, the default, or ``"penalty"``), ``penalty`` (-1),
    ``dealer`` (None: drawn at each reset), ``render_mode`` (``"ansi"`` or
    ``"human"``), ``engine`` (``"auto"``, the default: the family's compiled engine where it
    plays the ruleset, else the reference; ``"reference"``; ``"compiled"``), and ``set``: a
    mapping of rule options (``{"pack": 32}``).

    >>> env = pettingzoo_env("peel", players=4)
    >>> env.reset(seed=42)
    >>> obs, reward, terminated, truncated, info = env.last()
    >>> sorted(obs), obs["observation"].dtype, reward
    (['action_mask', 'observation'], dtype('float32'), 0.0)
    """
    from commerce.rl.aec import CommerceAEC, order_enforced

    changes = options.pop("set", None) or {}
    ruleset = find_ruleset(rules).with_options(**changes) if changes else find_ruleset(rules)
    return order_enforced(CommerceAEC(ruleset, players, **options))
