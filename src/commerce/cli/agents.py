"""Outside agents at our tables: ``--agent`` of ``commerce play`` and ``commerce tournament``.

Two kinds of agent take a seat like a bot (see ``docs/research.md``, "Your own agent"):

* ``--agent cmd:COMMAND``: a process started with *COMMAND* (split as a shell would, run
  without a shell) that speaks JSON lines on its standard input and output: for each decision
  the seat has, one line ``{"observation": ..., "legal": [...], "seat": N}`` goes in and one
  line comes back, the chosen action in notation (``{"action": "trade QH"}``, or the bare
  JSON string ``"trade QH"``). Its name at the table is ``agent`` (``agent2``, ... for more).
  It runs in a fresh empty folder of its own (removed when it stops), not in the folder of
  the saved games, whose unfinished games keep their hidden sections sealed
  (:mod:`commerce.seal`); a word of the command naming a file of the folder it was started
  from (``python my_agent.py``) is passed as that file's full path.
* ``--agent entry:NAME``: a Python bot that an installed package declares in the entry-point
  group ``commerce.agents`` (``NAME = "package.module:factory"``); the factory takes the
  options dict (``{}``) and returns an object with ``act(obs, legal, rng)``, as a bot does.

Agents are found here, on the application floor, because the package builds no module name
from a string: the entry-point machinery of ``importlib.metadata`` resolves what an installed
package declares, and a process is named by its command. A bad reply (not JSON, not a legal
action, no reply in ``timeout`` seconds, the process gone) stops the game with one clear
message naming the agent and what it sent; nothing is chosen in its place.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import select
import shlex
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from importlib.metadata import entry_points
from typing import IO, Any

from commerce import engine
from commerce.bots import BotFactory, register_bot
from commerce.core import Action, Bot
from commerce.errors import CommerceError
from commerce.seal import KEY_ENV

__all__ = ["ENTRY_POINT_GROUP", "ProcessAgent", "add_agent_argument", "register_agents"]

ENTRY_POINT_GROUP = "commerce.agents"
"""The entry-point group in which a package declares its agents."""
TIMEOUT = 30.0
"""Seconds a process agent has for each reply (``cmd:...`` agents take ``--agent-timeout``)."""
REPLY_SECONDS: tuple[float, float] = (0.01, 3600.0)
"""``--agent-timeout``: the range of seconds a process agent may be given for each reply."""
_REPLY_MAX = 10_000
"""The longest reply line read, in characters."""


class ProcessAgent:
    """A seat played by a process speaking JSON lines on its standard input and output."""

    reads_observation = True
    _home: str | None = None
    """The process's working folder while it runs."""

    def __init__(self, command: str, *, name: str = "agent", timeout: float = TIMEOUT) -> None:
        self._proc: subprocess.Popen[str] | None = None  # first: __del__ runs on a refused one
        try:
            self.argv = shlex.split(command)
        except ValueError as exc:
            raise CommerceError(f"--agent cmd:{command}: {exc}") from None
        if not self.argv:
            raise CommerceError("--agent cmd: give a command, e.g. cmd:'python my_agent.py'")
        self.command, self.name, self.spec, self.timeout = command, name, name, timeout

    def _start(self) -> subprocess.Popen[str]:
        if self._proc is None:
            # a fresh empty folder to work in (not the one holding games/), and no pointer
            # to the record key in its environment (docs/research.md: what it can reach)
            self._home = tempfile.mkdtemp(prefix="commerce-agent-")
            env = {k: v for k, v in os.environ.items() if k != KEY_ENV}
            # a word naming a file here (its script, its model) is passed as a full path
            argv = [os.path.abspath(w) if not os.path.isabs(w) and os.path.exists(w) else w
                    for w in self.argv]
            try:
                self._proc = subprocess.Popen(argv, stdin=subprocess.PIPE,
                                              stdout=subprocess.PIPE, text=True, bufsize=1,
                                              cwd=self._home, env=env)
            except OSError as exc:
                self._remove_home()
                raise CommerceError(f"agent {self.name} ({self.command}): cannot start it: "
                                    f"{exc.strerror or exc}") from None
        return self._proc

    def _remove_home(self) -> None:
        home, self._home = self._home, None
        if home is not None:
            shutil.rmtree(home, ignore_errors=True)

    def _fail(self, what: str) -> CommerceError:
        self.close(wait=0.0)
        return CommerceError(f"agent {self.name} ({self.command}): {what}")

    def act(self, obs: Any, legal: Sequence[Action], rng: random.Random) -> Action:
        """Send the observation and the legal actions; the action the process names."""
        rules = obs.ruleset
        names = [engine.format_action(rules, a) for a in legal]
        proc = self._start()
        message = {"seat": obs.seat, "observation": obs.to_dict(), "legal": names}
        stdin, stdout = proc.stdin, proc.stdout
        assert stdin is not None and stdout is not None
        try:
            stdin.write(json.dumps(message, default=repr) + "\n")
            stdin.flush()
        except OSError:
            raise self._fail("the process has stopped (its input is closed)") from None
        line = self._read(stdout)
        try:
            reply = json.loads(line)
        except ValueError:
            raise self._fail(f"replied {line.strip()[:80]!r}, which is not JSON "
                             '(send {"action": "..."} on one line)') from None
        choice = reply.get("action") if isinstance(reply, dict) else reply
        if not isinstance(choice, str) or choice.strip() not in names:
            shown = ", ".join(names[:12]) + (" ..." if len(names) > 12 else "")
            raise self._fail(f"replied {json.dumps(choice)[:80]}, which is not one of the "
                             f"legal actions ({shown})")
        return legal[names.index(choice.strip())]

    def _read(self, stdout: IO[str]) -> str:
        ready, _, _ = select.select([stdout], [], [], self.timeout)
        if not ready:
            raise self._fail(f"no reply within {self.timeout:g} s")
        line = stdout.readline(_REPLY_MAX)
        if not line:
            raise self._fail("the process ended without replying")
        return line

    def close(self, wait: float = 2.0) -> None:
        """Stop the process: its input closed, then terminated if it lingers *wait* s."""
        proc, self._proc = self._proc, None
        if proc is None:
            self._remove_home()
            return
        try:
            if proc.stdin is not None:
                proc.stdin.close()
            proc.wait(timeout=wait)
        except (OSError, subprocess.TimeoutExpired):
            proc.terminate()
            proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()
        self._remove_home()

    def __del__(self) -> None:
        self.close()


def add_agent_argument(p: argparse.ArgumentParser) -> None:
    """The ``--agent`` and ``--agent-timeout`` options."""
    p.add_argument("--agent", action="append", default=[], metavar="SPEC",
                   help="an outside agent takes a seat: cmd:'COMMAND' (a process speaking "
                        "JSON lines, named agent, agent2, ...) or entry:NAME (a bot declared "
                        f"in the entry-point group {ENTRY_POINT_GROUP}); see docs/research.md")
    from commerce.cli import float_in, span

    p.add_argument("--agent-timeout", type=float_in(*REPLY_SECONDS), default=TIMEOUT,
                   metavar="SECONDS",
                   help=f"seconds a cmd: agent has for each reply, {span(REPLY_SECONDS)} "
                        f"(default {TIMEOUT:g})")


def _entry_factory(name: str) -> BotFactory:
    found = [ep for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name == name]
    if not found:
        known = sorted(ep.name for ep in entry_points(group=ENTRY_POINT_GROUP))
        raise CommerceError(f"--agent entry:{name}: no installed package declares it in the "
                            f"entry-point group {ENTRY_POINT_GROUP} (declared: "
                            f"{', '.join(known) or 'none'})")
    try:
        factory = found[0].load()
    except Exception as exc:  # the researcher's package: any error it raises on import
        raise CommerceError(f"--agent entry:{name}: loading {found[0].value} failed: "
                            f"{type(exc).__name__}: {exc}") from None
    if not callable(factory):
        raise CommerceError(f"--agent entry:{name}: {found[0].value} is not callable")
    return factory  # type: ignore[no-any-return]


def register_agents(args: argparse.Namespace) -> list[str]:
    """Register each ``--agent`` as a bot; their names, in the order given.

    :raises CommerceError: for a spec that is neither ``cmd:`` nor ``entry:``, or an entry
        point that no installed package declares.
    """
    names: list[str] = []
    timeout = float(getattr(args, "agent_timeout", TIMEOUT))
    if not timeout > 0:
        raise CommerceError("--agent-timeout: must be more than 0 seconds")
    for spec in getattr(args, "agent", None) or []:
        kind, sep, rest = spec.partition(":")
        if not sep or kind not in ("cmd", "entry") or not rest.strip():
            raise CommerceError(f"--agent {spec!r}: write cmd:'COMMAND' or entry:NAME")
        if kind == "cmd":
            name = "agent" if "agent" not in names else f"agent{len(names) + 1}"
            command = rest

            def make(_options: dict[str, str], command: str = command,
                     name: str = name) -> Bot:
                return ProcessAgent(command, name=name, timeout=timeout)

            ProcessAgent(command, name=name)  # the command is checked (split) now
            register_bot(name, make)
        else:
            name = rest.strip().lower()
            register_bot(name, _entry_factory(rest.strip()))
        names.append(name)
    return names
