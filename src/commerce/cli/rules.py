"""``commerce rules``: list the presets, show one with every option, or compare two."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from commerce.rules import OptionValue, Ruleset


def configure_rules(p: argparse.ArgumentParser) -> None:
    """Arguments of ``commerce rules``."""
    p.add_argument("what", nargs="*", metavar="show ID | diff A B",
                   help="nothing to list the presets; 'show ID'; 'diff A B'")
    p.add_argument("--json", action="store_true", help="print JSON")


def _fmt(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def run_rules(args: argparse.Namespace) -> int:
    """List, show or diff rulesets."""
    from commerce.errors import CommerceError
    from commerce.rules import (
        family_option_names,
        find_ruleset,
        option_doc,
        option_names,
        rulesets,
    )

    what = args.what
    if not what or what == ["list"]:
        items: list[dict[str, Any]] = [
            {"id": r.id, "version": r.version, "name": r.name, "sources": list(r.sources)}
            for r in rulesets()
        ]
        if args.json:
            print(json.dumps({"rulesets": items}))
        else:
            _print_list(items)
        return 0
    if what[0] == "show" and len(what) == 2:
        ruleset = find_ruleset(what[1])
        options = [{"name": n, "value": getattr(ruleset, n), "meaning": option_doc(n),
                    "source": ruleset.option_source(n)} for n in family_option_names(ruleset)]
        if args.json:
            print(json.dumps({"id": ruleset.id, "version": ruleset.version, "name": ruleset.name,
                              "family": ruleset.family, "sources": list(ruleset.sources),
                              "options": options}))
            return 0
        say = _wrapper()
        say(f"{ruleset.name} ({ruleset.id}, version {ruleset.version}, {ruleset.family} "
            "family)")
        for src in ruleset.sources:
            say(f"source: {src}", "  ")
        print()
        for o in options:
            say(f"{o['name']} = {_fmt(o['value'])}")
            say(o["meaning"], "    ")
            if o["source"]:
                say(f"source: {o['source']}", "    ")
        return 0
    if what[0] == "diff" and len(what) == 3:
        a, b = find_ruleset(what[1]), find_ruleset(what[2])
        read = set(family_option_names(a)) | set(family_option_names(b))
        rows = [{"name": n, a.id: _read(a, n), b.id: _read(b, n)}
                for n in option_names() if n in read and _read(a, n) != _read(b, n)]
        if args.json:
            print(json.dumps({"a": a.id, "b": b.id, "differences": rows}))
            return 0
        if a.family != b.family:
            print(f"family: {a.family} vs {b.family}")
        if not rows:
            print(f"{a.id} and {b.id} have the same options")
        width = max([len(str(r["name"])) for r in rows] + [6])
        print(f"{'option':<{width}}  {a.id:<20} {b.id}")
        for row in rows:
            shown = ["(not read)" if row[r.id] is None else _fmt(row[r.id]) for r in (a, b)]
            print(f"{row['name']:<{width}}  {shown[0]:<20} {shown[1]}")
        return 0
    raise CommerceError("use 'commerce rules', 'commerce rules show ID' or "
                        "'commerce rules diff A B'")


def _width() -> int:
    """The terminal's width (80 columns off a terminal, or ``COLUMNS``), at least 40."""
    import shutil

    return max(40, shutil.get_terminal_size((80, 24)).columns)


def _wrapper() -> Callable[..., None]:
    """What prints a text wrapped between words within the terminal's width, under an
    indent, its continued lines two columns further in."""
    import textwrap

    width = _width()

    def say(text: str, indent: str = "") -> None:
        print(textwrap.fill(text, width, initial_indent=indent, subsequent_indent=indent + "  ",
                            break_long_words=False, break_on_hyphens=False))

    return say


def _print_list(items: list[dict[str, Any]]) -> None:
    """One preset a line: its id, version and name, the name wrapped between words under
    itself so that no line is wider than the terminal (80 columns off a terminal)."""
    import textwrap

    width = _width()
    key = max(len(r["id"]) for r in items) + 2
    for r in items:
        head = f"{r['id']:<{key}}v{r['version']}  "
        lines = textwrap.wrap(r["name"], width - len(head), break_long_words=False,
                              break_on_hyphens=False) or [""]
        print(head + lines[0])
        for line in lines[1:]:
            print(" " * len(head) + line)


def _read(ruleset: Ruleset, name: str) -> OptionValue | None:
    """Option *name* of *ruleset*, or None where its family does not read it."""
    try:
        value: OptionValue = getattr(ruleset, name)
    except AttributeError:
        return None
    return value
