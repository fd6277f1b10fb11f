"""A tiny outside agent speaking the JSON-lines protocol of ``--agent cmd:...``.

    commerce tournament --rules trade-and-barter-mini --players 2 --bots random \\
        --agent cmd:"python examples/json_agent.py"

For each decision a line ``{"seat": N, "observation": {...}, "legal": ["stand", ...]}`` comes
in on standard input; the agent answers one line ``{"action": "<one of legal>"}``. This one
stands when it may and otherwise takes the first legal action, which a real agent would
replace with its policy (``docs/research.md``, "Your own agent").
"""

from __future__ import annotations

import json
import sys


def choose(message: dict[str, object]) -> str:
    """The action to play: ``stand`` or ``knock`` if legal, else the first legal action."""
    legal = [str(a) for a in message["legal"]]  # type: ignore[attr-defined]
    for wish in ("stand", "knock"):
        if wish in legal:
            return wish
    return legal[0]


def main() -> int:
    """Answer every line of standard input until it ends."""
    for line in sys.stdin:
        print(json.dumps({"action": choose(json.loads(line))}), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
