"""Reading the player's lines in the terminal, and the signals that stop a session.

:class:`Stop` turns Ctrl-C, SIGTERM and a closed terminal (SIGHUP) into :class:`Closed`,
raised only where the session is consistent; :func:`line_reader` reads a line with
prompt_toolkit's editing and history on a terminal, or with :func:`input` else.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from types import FrameType
from typing import TYPE_CHECKING, Any

from commerce.cli import presentation

if TYPE_CHECKING:
    from prompt_toolkit.input import Input
    from prompt_toolkit.output import Output


class Closed(Exception):
    """A signal asked the session to stop: Ctrl-C, SIGTERM, or the terminal went away."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


_STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP")
                      if hasattr(signal, name))


class Stop:
    """Turns SIGINT, SIGTERM and SIGHUP into :class:`Closed`, raised only where the session
    is consistent: while it waits for the user (:meth:`waiting`), or at :meth:`check`, which
    the session calls between two moves. A signal during a move, a bot's thinking or a save
    waits for that to finish."""

    def __init__(self) -> None:
        self.signum: int | None = None
        self._waiting = False
        self.interrupt: Callable[[Closed], None] | None = None
        """Set by a reader that runs its own event loop (prompt_toolkit): takes the signal
        instead of having it raised inside that loop, which may be half built or half torn
        down. The reader ends its wait with the exception, or the signal waits for the
        reader's loop to start or for the next :meth:`check`."""

    def handler(self, signum: int, frame: FrameType | None) -> None:
        """The signal handler."""
        if self.signum is None:
            self.signum = signum
        if self._waiting:
            self._waiting = False
            if self.interrupt is not None:
                self.interrupt(Closed(signum))
                return
            raise Closed(signum)

    def check(self) -> None:
        """Raise :class:`Closed` if a signal came."""
        if self.signum is not None:
            raise Closed(self.signum)

    @contextlib.contextmanager
    def waiting(self) -> Iterator[None]:
        """While the user is being asked: a signal stops the session at once."""
        self._waiting = True
        try:
            self.check()
            yield
        finally:
            self._waiting = False

    @contextlib.contextmanager
    def installed(self) -> Iterator[None]:
        """The handlers, in place for the session (in the main thread only: elsewhere a
        program's own handling stays)."""
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        previous = {s: signal.signal(s, self.handler) for s in _STOP_SIGNALS}
        try:
            yield
        finally:
            for s, handler in previous.items():
                if handler is not None:  # None: set outside Python, cannot be put back
                    signal.signal(s, handler)


def line_reader(family: str, stop: Stop | None = None) -> Callable[[str], str]:
    """What reads the player's lines: :func:`prompt_reader` when standard input and output
    are terminals, else :func:`input`."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return input
    return prompt_reader(family, stop)


def prompt_reader(family: str, stop: Stop | None = None, *, pt_input: Input | None = None,
                  pt_output: Output | None = None) -> Callable[[str], str]:
    """A reader of lines with prompt_toolkit: line editing, history (up and down) and
    completion of the command words. Ctrl-C at the prompt stops the session as the signal
    would; a signal while it waits ends the wait (see :class:`Stop`)."""
    import asyncio

    from prompt_toolkit import PromptSession
    from prompt_toolkit.completion import WordCompleter
    from prompt_toolkit.history import InMemoryHistory

    words = sorted({*presentation(family).short_words.values(), "help", "hint", "quit"})
    session: PromptSession[str] = PromptSession(
        history=InMemoryHistory(), completer=WordCompleter(words, ignore_case=True),
        input=pt_input, output=pt_output)

    def end_wait(exc: BaseException) -> None:
        """End the prompt's wait with *exc*, if it is waiting. While it starts (its event
        loop being built) or ends (its result set, the loop torn down) nothing is done:
        raising there would leave the loop half made. A signal is then kept (the stop's
        signum) for :func:`started` or the session's next check."""
        app = session.app
        if not app.is_running or app.future is None or app.future.done():
            return
        with contextlib.suppress(Exception):  # prompt_toolkit refuses: it stopped in between
            app.exit(exception=exc)

    def failed(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """The prompt's event loop's handler of what its callbacks raise: a terminal that
        failed (gone away) ends the wait with the error, which the session reports; once
        the prompt has ended the error is dropped (the next read meets it). Anything else is
        asyncio's to report."""
        exc = context.get("exception")
        if isinstance(exc, OSError):
            end_wait(exc)
        else:
            loop.default_exception_handler(context)

    def started() -> None:
        """Called by the prompt once it waits: a signal that came while it started ends it."""
        asyncio.get_running_loop().set_exception_handler(failed)
        if stop is not None and stop.signum is not None:
            end_wait(Closed(stop.signum))

    if stop is not None:
        stop.interrupt = end_wait

    def read(prompt: str) -> str:
        try:
            return session.prompt(prompt, set_exception_handler=False, pre_run=started)
        except KeyboardInterrupt:
            raise Closed(signal.SIGINT) from None

    return read
