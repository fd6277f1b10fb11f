"""Cox's ``kernel`` and ``env_kernel`` hooks, loading the compiled kernels (:mod:`.kernel`,
:mod:`.kernel_env`) on first use: numba is a heavy import that ``import commerce`` does not
pay."""

from __future__ import annotations

from typing import Any

from commerce.rules import Ruleset


def kernel(rules: Ruleset, players: int) -> Any:
    """The compiled kernel of *rules* at *players* seats (:func:`.kernel.build`)."""
    from commerce.families.cox.kernel import build

    return build(rules, players)


def env_kernel(rules: Ruleset, players: int) -> Any:
    """The steppable kernel of *rules* at *players* seats (:func:`.kernel_env.env_kernel`)."""
    from commerce.families.cox.kernel_env import env_kernel as make

    return make(rules, players)
