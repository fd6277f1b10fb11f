"""Computer players. A bot sees only its observation, the legal actions and its own RNG.

>>> make_bot("random").name
'random'
>>> make_bot("dealer")
Traceback (most recent call last):
...
commerce.errors.CommerceError: unknown bot 'dealer'; bots are: heuristic, random, search
"""

from __future__ import annotations

__all__ = ["Bot", "BotFactory", "bot_names", "make_bot", "parse_bot_list", "register_bot"]

from collections.abc import Callable

from commerce.core import Bot
from commerce.errors import CommerceError

BotFactory = Callable[[dict[str, str]], Bot]
_FACTORIES: dict[str, BotFactory] = {}


def register_bot(name: str, factory: BotFactory) -> None:
    """Make ``make_bot(name[:k=v,...])`` build a bot with *factory*(options)."""
    _FACTORIES[name] = factory


def bot_names() -> list[str]:
    """Names of every bot level."""
    _load()
    return sorted(_FACTORIES)


def make_bot(spec: str) -> Bot:
    """Build a bot from a spec such as ``random``, ``heuristic`` or ``search:iterations=200``.

    :raises CommerceError: for an unknown bot or option, listing the valid ones.
    """
    _load()
    name, _, rest = spec.strip().partition(":")
    factory = _FACTORIES.get(name.strip().lower())
    if factory is None:
        raise CommerceError(f"unknown bot {name!r}; bots are: {', '.join(bot_names())}")
    options: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, sep, value = part.partition("=")
        if not sep:
            raise CommerceError(f"bot option {part!r}: write name=value")
        options[key.strip()] = value.strip()
    bot = factory(options)
    bot.spec = spec.strip()
    return bot


def parse_bot_list(text: str, players: int) -> list[Bot]:
    """Bots for every seat from a comma list, cycled to fill *players* seats.

    Options of one bot are separated by ``;`` inside a spec (``search:iterations=50;c=1``).
    """
    specs = [s.strip().replace(";", ",") for s in text.split(",") if s.strip()]
    if not specs:
        raise CommerceError("give at least one bot, e.g. --bots random,heuristic")
    return [make_bot(specs[i % len(specs)]) for i in range(players)]


def _load() -> None:
    if not _FACTORIES:
        from commerce.bots import heuristic, random_bot, search

        register_bot("random", random_bot.RandomBot.from_options)
        register_bot("heuristic", heuristic.HeuristicBot.from_options)
        register_bot("search", search.SearchBot.from_options)
