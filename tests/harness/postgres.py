"""A throwaway PostgreSQL server for the tests: ``initdb`` in a temporary folder, started on a
free port, stopped and removed afterwards. Run as an unprivileged user when the tests run as
root (PostgreSQL refuses to run as root).

Where PostgreSQL is not installed the test is skipped on a developer's machine, and fails
where the environment variable ``CI`` is set (``.ci/run`` installs Debian's package).
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


def _bin_dir() -> Path | None:
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    dirs = sorted(glob.glob("/usr/lib/postgresql/*/bin"))
    return Path(dirs[-1]) if dirs and Path(dirs[-1], "initdb").exists() else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _runner() -> list[str]:
    """The command prefix that runs a program as an unprivileged user when we are root."""
    if os.geteuid() != 0:
        return []
    for user in ("postgres", "nobody"):
        try:
            pwd.getpwnam(user)
        except KeyError:
            continue
        return ["runuser", "-u", user, "--"]
    pytest.fail("running as root, and no unprivileged user (postgres, nobody) to run "
                "PostgreSQL as")


def _missing(why: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"PostgreSQL is needed under CI: {why}")
    pytest.skip(f"PostgreSQL is not installed here: {why}")


@contextmanager
def postgres_server() -> Iterator[str]:
    """A running PostgreSQL server; yields its URL."""
    bindir = _bin_dir()
    if bindir is None:
        _missing("no initdb on PATH or in /usr/lib/postgresql/*/bin")
        raise AssertionError  # not reached
    run = _runner()
    folder = Path(tempfile.mkdtemp(prefix="commerce-pg-"))
    data = folder / "data"
    try:
        if run:
            user = run[2]
            entry = pwd.getpwnam(user)
            os.chown(folder, entry.pw_uid, entry.pw_gid)
        folder.chmod(0o700)
        subprocess.run([*run, str(bindir / "initdb"), "-D", str(data), "-U", "postgres",
                        "--auth=trust", "-E", "UTF8", "--no-sync"],
                       check=True, capture_output=True, timeout=120)
        port = _free_port()
        options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        subprocess.run([*run, str(bindir / "pg_ctl"), "-D", str(data), "-o", options,
                        "-l", str(folder / "log"), "-w", "-t", "60", "start"],
                       check=True, capture_output=True, timeout=120)
        try:
            yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
        finally:
            subprocess.run([*run, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate",
                            "-w", "stop"], capture_output=True, timeout=120)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
