"""Computer players. A bot sees only its observation, the legal actions and its own RNG.

>>> make_bot("random").name
'random'
>>> make_bot("dealer")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
commerce.errors.CommerceError: unknown bot 'dealer'; bots are: heuristic, learned, random, ...
"""

from __future__ import annotations

__all__ = ["Bot", "BotFactory", "bot_names", "make_bot", "parse_bot_list", "register_bot"]

import re
from collections.abc import Callable

from commerce.core import Bot
from commerce.errors import CommerceError

BotFactory = Callable[[dict[str, str]], Bot]
"""Builds a bot from its spec's options (``{"iterations": "200"}``); a bot class whose
constructor takes the options dict is one."""

_NAME = re.compile(r"[a-z0-9][a-z0-9_.-]*")


def _random(options: dict[str, str]) -> Bot:
    from commerce.bots.random_bot import RandomBot

    return RandomBot.from_options(options)


def _heuristic(options: dict[str, str]) -> Bot:
    from commerce.bots.heuristic import HeuristicBot

    return HeuristicBot.from_options(options)


def _learned(options: dict[str, str]) -> Bot:
    from commerce.bots.learned import LearnedBot

    return LearnedBot.from_options(options)


def _search(options: dict[str, str]) -> Bot:
    from commerce.bots.search import SearchBot

    return SearchBot.from_options(options)


def _search_fast(options: dict[str, str]) -> Bot:
    from commerce.bots.search import SearchBot

    return SearchBot.fast_from_options(options)


# The built-in levels are registered from the start (their modules load when one is built),
# so a register_bot() call adds to them rather than taking their place.
_FACTORIES: dict[str, BotFactory] = {"random": _random, "heuristic": _heuristic,
                                     "search": _search, "search-fast": _search_fast,
                                     "learned": _learned}


def register_bot(name: str, factory: BotFactory) -> None:
    """Make ``make_bot(name[:k=v,...])`` build a bot with *factory*(options).

    *name* is matched without regard to case; a bot built without a ``name`` of its own is
    given this one.

    :raises CommerceError: for a name that a spec cannot hold (letters, digits and ``_.-``
        only), a factory that is not callable, or a bot class with no ``act`` method.
    """
    key = name.strip().lower() if isinstance(name, str) else ""
    if not _NAME.fullmatch(key):
        raise CommerceError(f"bot name {name!r}: use letters, digits, '_', '.' or '-'")
    if not callable(factory):
        raise CommerceError(f"bot {key!r}: the factory must be callable, not {factory!r}")
    if isinstance(factory, type) and not callable(getattr(factory, "act", None)):
        raise CommerceError(f"bot {key!r}: class {factory.__name__} has no "
                            f"act(obs, legal, rng) method")
    _FACTORIES[key] = factory


def bot_names() -> list[str]:
    """Names of every bot level."""
    return sorted(_FACTORIES)


def make_bot(spec: str) -> Bot:
    """Build a bot from a spec such as ``random``, ``heuristic`` or ``search:iterations=200``.

    :raises CommerceError: for an unknown bot or option, listing the valid ones, or a
        registered factory that does not make a usable bot.
    """
    name, _, rest = spec.strip().partition(":")
    key = name.strip().lower()
    factory = _FACTORIES.get(key)
    if factory is None:
        raise CommerceError(f"unknown bot {name!r}; bots are: {', '.join(bot_names())}")
    options: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key_, sep, value = part.partition("=")
        if not sep:
            raise CommerceError(f"bot option {part!r}: write name=value")
        options[key_.strip()] = value.strip()
    bot = factory(options)
    if not callable(getattr(bot, "act", None)):
        raise CommerceError(f"bot {key!r}: its factory made a {type(bot).__name__}, which has "
                            f"no act(obs, legal, rng) method")
    try:
        if not isinstance(getattr(bot, "name", None), str) or not bot.name:
            bot.name = key
        bot.spec = spec.strip()
    except AttributeError:
        raise CommerceError(f"bot {key!r}: a {type(bot).__name__} cannot be given its name "
                            f"and spec (make 'name' and 'spec' writable attributes)") from None
    return bot


def parse_bot_list(text: str, players: int) -> list[Bot]:
    """Bots for every seat from a comma list, cycled to fill *players* seats.

    Options of one bot are separated by ``;`` inside a spec (``search:iterations=50;c=1``).
    """
    specs = [s.strip().replace(";", ",") for s in text.split(",") if s.strip()]
    if not specs:
        raise CommerceError("give at least one bot, e.g. --bots random,heuristic")
    return [make_bot(specs[i % len(specs)]) for i in range(players)]
