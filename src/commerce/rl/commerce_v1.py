"""PettingZoo's way of making a game: ``commerce_v1.env(rules, players=4, **options)``, agents
``player_0`` ... ``player_{n-1}``, as PettingZoo's card games name them.

``env`` returns the environment in PettingZoo's ``OrderEnforcingWrapper`` (as the classic
games' ``env()`` do), ``raw_env`` the :class:`~commerce.rl.aec.CommerceAEC` itself; the options
are :func:`commerce.rl.pettingzoo_env`'s.

>>> from commerce.rl import commerce_v1
>>> env = commerce_v1.env("peel", players=4)
>>> env.reset(seed=1)
>>> env.agents[0], env.metadata["name"]
('player_0', 'commerce_v1')
"""

from __future__ import annotations

from typing import Any

from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from commerce.rl.aec import CommerceAEC, order_enforced

__all__ = ["env", "raw_env"]


def raw_env(rules: str, players: int = 4, **options: Any) -> CommerceAEC:
    """The environment of ruleset *rules* without PettingZoo's order enforcement."""
    from commerce.rl import pettingzoo_env

    made: CommerceAEC = pettingzoo_env(rules, players, version="commerce_v1", **options).unwrapped
    return made


def env(rules: str, players: int = 4, **options: Any) -> OrderEnforcingWrapper:
    """The environment of ruleset *rules*, order enforced (PettingZoo's ``env()``)."""
    return order_enforced(raw_env(rules, players, **options))
