"""``register_bot``: it adds to the built-in bots, and what it registers is checked."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from commerce import bots
from commerce.bots import make_bot, register_bot
from commerce.core import Action
from commerce.driver import Driver, play_game
from commerce.errors import CommerceError
from commerce.rules import find_ruleset


@pytest.fixture(autouse=True)
def _own_registry(monkeypatch):
    """Registrations made by a test stay in that test."""
    monkeypatch.setattr(bots, "_FACTORIES", dict(bots._FACTORIES))


class Nameless:
    """A bot class with ``act`` and nothing else: no ``name``."""

    def __init__(self, options: dict[str, str]) -> None:
        self.options = options

    def act(self, obs: Any, legal: Sequence[Action], rng: random.Random) -> Action:
        return legal[0]


def test_registering_first_keeps_every_built_in_bot():
    # In a fresh interpreter, so that no bot has been built before the registration.
    code = (
        "from commerce.bots import bot_names, make_bot, register_bot\n"
        "register_bot('mine', lambda options: make_bot('random'))\n"
        "print(','.join(bot_names()))\n"
        "print(make_bot('heuristic').name, make_bot('search').name, make_bot('mine').name)\n"
    )
    env = dict(os.environ)
    src = str(Path(__file__).resolve().parent.parent / "src")
    env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == ["heuristic,learned,mine,random,search,search-fast",
                                         "heuristic search random"]


def test_a_bot_without_a_name_gets_the_registered_one_and_plays():
    register_bot("Plain", Nameless)
    bot = make_bot("plain:x=1")
    assert bot.name == "plain" and bot.spec == "plain:x=1"
    assert isinstance(bot, Nameless) and bot.options == {"x": "1"}
    rules = find_ruleset("peel")
    record = play_game(rules, [bot, make_bot("random"), make_bot("random")], seed=3)
    assert record.complete and record.seats[0].agent == "plain:x=1"
    assert Driver(rules, [bot, None, None], seed=1).names[0] == "plain (seat 0)"


def test_a_bot_keeps_its_own_name():
    class Named(Nameless):
        name = "clever"

    register_bot("named", Named)
    assert make_bot("named").name == "clever"


@pytest.mark.parametrize("name,factory,needle", [
    ("", Nameless, "bot name"),
    ("a:b", Nameless, "bot name"),
    ("two words", Nameless, "bot name"),
    ("x,y", Nameless, "bot name"),
    ("ok", 42, "must be callable"),
    ("ok", object, "no act"),
])
def test_registration_refuses_what_cannot_work(name, factory, needle):
    with pytest.raises(CommerceError, match=needle):
        register_bot(name, factory)
    assert "ok" not in bots.bot_names()


def test_a_factory_that_makes_no_bot_is_refused_when_building():
    register_bot("broken", lambda options: object())
    with pytest.raises(CommerceError, match="no act"):
        make_bot("broken")

    class Frozen:
        __slots__ = ()

        def __init__(self, options: dict[str, str]) -> None:
            pass

        def act(self, obs: Any, legal: Sequence[Action], rng: random.Random) -> Action:
            return legal[0]

    register_bot("frozen", Frozen)
    with pytest.raises(CommerceError, match="cannot be given its name"):
        make_bot("frozen")
