"""The server's message schema (:func:`commerce.server.protocol.json_schema`) against the
page: every field the page's JavaScript reads of a server message is a field of the schema,
and no message carries an untyped object."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from commerce.server.protocol import json_schema

STATIC = Path(__file__).resolve().parents[1] / "src" / "commerce" / "server" / "static"

JS_NAMES = frozenset("""
    add addEventListener all append body catch finally checked childElementCount className close
    closest code colour concat contains ctrlKey data dataset default entries error every
    filter find findIndex firstElementChild flat flatMap floor focus forEach from get has
    hash host href includes indexOf innerHTML isConnected join json key keys length map
    match max message metaKey min now ok open origin parse pathname preventDefault protocol
    push readyState remove removeEventListener removeItem replace replaceAll replaceChildren
    replaceState reverse round scrollHeight scrollTop search send set setItem setProperty
    shiftKey short slice some sort split startsWith status style tagName target test text
    textContent then toFixed toLowerCase toUpperCase trim type value values writeText
    clipboard cos sin PI abs ceil getItem appendChild checked dispatchEvent endsWith
    querySelector querySelectorAll getAttribute setAttribute hidden disabled selected classList
    toggle onopen onmessage onclose retries closed sent keys spectate lobbySeen selected
    ticking ping ws root info tableId me view log board notice clock lobby offers actions
    hints end logList chatList tableInfo toLocaleString detail stringify button card onclick
    build connect pick act rest onCard bottom height innerHeight scrollBy wasMine over
""".split())
"""Names the page reads that are JavaScript's, the DOM's, or the page's own objects'."""


def _properties(schema: Any) -> set[str]:
    found: set[str] = set()
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key == "properties" and isinstance(value, dict):
                found.update(value)
            found |= _properties(value)
    elif isinstance(schema, list):
        for item in schema:
            found |= _properties(item)
    return found


def test_every_field_the_page_reads_is_in_the_schema() -> None:
    fields = _properties(json_schema())
    read: dict[str, str] = {}
    for path in sorted((STATIC / "js").glob("*.js")):
        text = re.sub(r"/\*.*?\*/", "", path.read_text(), flags=re.S)
        text = re.sub(r"(?<![:$}])//[^\n]*", "", text)
        text = re.sub(r'"(?:[^"\\]|\\.)*"', '""', text)  # not in strings
        for name in re.findall(r"[\w)\]]\??\.([A-Za-z_]\w*)", text):
            read.setdefault(name, path.name)
    unknown = {name: where for name, where in read.items()
               if name not in fields and name not in JS_NAMES and not name[:1].isupper()
               and not re.search(r"[A-Z]", name)}
    assert not unknown, f"the page reads fields the server never sends: {unknown}"


def test_the_fields_of_the_messages_are_there_and_typed() -> None:
    schema = json_schema()
    defs = schema["$defs"]
    # what the page shows of a table in the lobby, a hint, a game's end, a history
    assert {"host_name", "seats_taken", "title"} <= set(defs["TableInfo"]["properties"])
    assert {"label", "gain", "win", "best"} <= set(defs["HintRow"]["properties"])
    assert {"result", "payoff", "deals_won"} <= set(defs["Standing"]["properties"])
    assert {"title", "played", "result"} <= set(defs["GameSummary"]["properties"])
    assert {"rules", "ranking", "moves", "legend", "summary"} <= set(
        defs["RulesetInfo"]["properties"])

    def untyped(node: Any, where: str) -> list[str]:
        out = []
        if isinstance(node, dict):
            if node.get("type") == "object" and "properties" not in node and \
                    "additionalProperties" not in node and "$ref" not in node:
                out.append(where)
            for key, value in node.items():
                out += untyped(value, f"{where}/{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                out += untyped(value, f"{where}/{i}")
        return out

    assert untyped(schema, "#") == []
    text = json.dumps(schema)
    assert '"additionalProperties": true' not in text


def test_the_server_imports_no_other_application() -> None:
    # the page's words (the rules' help, humanize) live on the presentation floor
    import ast

    server = Path(__file__).resolve().parents[1] / "src" / "commerce" / "server"
    for path in server.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else \
                [a.name for a in node.names] if isinstance(node, ast.Import) else []
            for name in names:
                assert not name.startswith(("commerce.cli", "commerce.rl")), \
                    f"{path.name} imports {name}"
