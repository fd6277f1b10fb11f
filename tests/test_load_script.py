"""The load test (scripts/load_test.py), CI-sized: two tables over real websockets against
``commerce serve``, the server killed and restarted mid-run; its own check must hold."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_load_test_loses_nothing_when_the_server_is_killed_mid_run() -> None:
    run = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "load_test.py"), "--tables", "2",
         "--seconds", "8", "--kill-at", "3", "--window", "0.05"],
        capture_output=True, text=True, timeout=240,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    result = json.loads(run.stdout)
    assert result["killed_after_s"] is not None and result["reconnects"] > 0
    assert result["player_actions"] > 0 and result["records_replayed"] > 0
    assert result["lost"] == 0 and result["twice"] == 0 and result["records_missing"] == 0
    assert result["latency_ms"]["p99"] >= result["latency_ms"]["median"] > 0
