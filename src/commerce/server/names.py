"""Players' names and other text people type: normalised, and refused in one sentence where
they would mislead (a right-to-left override reverses every log line it appears in).

A name is NFC-normalised, its runs of whitespace made one space, and trimmed; it may hold no
control, format, private-use or surrogate character (Unicode categories Cc, Cf, Co, Cs), no
line or paragraph separator (Zl, Zp), and may not be "You" (what the page calls its own
seat).

>>> player_name("  Ann \\t  Lee ")
'Ann Lee'
>>> player_name("Zoe\\u0301") == "Zo\\u00e9"
True
>>> try:
...     player_name("Bob\\u202e")
... except TextRefused as exc:
...     print(exc)
name: U+202E is a control or format character; write a name without it
>>> distinct("Ann", ["Ann", "Bob"])
'Ann (2)'
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

__all__ = ["REFUSED_CATEGORIES", "TextRefused", "clean_text", "distinct", "player_name",
           "refused_character", "shown"]

REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Zl", "Zp"})
"""The Unicode categories no name or chat line may hold (tabs and line feeds are made
spaces; the line and paragraph separators U+2028 and U+2029 are refused)."""
RESERVED = frozenset({"you"})
"""Names (compared case-insensitively) that the page uses for something else."""
_SPACES = str.maketrans("\t\n\r\x0b\x0c", "     ")
"""The control characters that are ordinary whitespace (made a space, not refused)."""
MAX_NAME_CHARS = 40
"""The longest name, in characters after normalising."""


class TextRefused(ValueError):
    """A name or text refused: one sentence."""


def refused_character(text: str) -> str | None:
    """The first character of *text* in :data:`REFUSED_CATEGORIES`, or None.

    >>> refused_character("ok"), refused_character("a\\x00b")
    (None, '\\x00')
    """
    for ch in text:
        if unicodedata.category(ch) in REFUSED_CATEGORIES:
            return ch
    return None


def clean_text(text: str, what: str = "text") -> str:
    """*text* NFC-normalised, runs of whitespace made one space and trimmed.

    :raises TextRefused: if it holds a refused character (:data:`REFUSED_CATEGORIES`).
    """
    bad = next((ch for ch in text if unicodedata.category(ch) == "Cs"), None)
    if bad is not None:  # a lone surrogate cannot be normalised: say so first
        raise TextRefused(f"{what}: U+{ord(bad):04X} is a lone surrogate, not a character")
    text = unicodedata.normalize("NFC", text)
    bad = refused_character(text.translate(_SPACES))
    if bad is not None:
        raise TextRefused(f"{what}: U+{ord(bad):04X} is a control or format character; "
                         f"write a {what} without it")
    return " ".join(text.split())


def player_name(text: str) -> str:
    """*text* as a player's name (see the module's docstring).

    :raises TextRefused: for an empty, too long, reserved or misleading name.
    """
    name = clean_text(text, "name")
    if not name:
        raise TextRefused("name: write a name to play under")
    if len(name) > MAX_NAME_CHARS:
        raise TextRefused(f"name: at most {MAX_NAME_CHARS} characters")
    if name.casefold() in RESERVED:
        raise TextRefused(f"name: {name!r} is what the page calls your own seat; choose another")
    return name


def distinct(name: str, taken: Iterable[str]) -> str:
    """*name*, or *name* with the first free number "(2)", "(3)"... where another seat at the
    table already shows it (compared case-insensitively)."""
    used = {t.casefold() for t in taken}
    if name.casefold() not in used:
        return name
    k = 2
    while f"{name} ({k})".casefold() in used:
        k += 1
    return f"{name} ({k})"


def shown(text: str, limit: int = 200) -> str:
    """*text* safe to put in a reply: lone surrogates and refused characters written as
    ``\\uXXXX``, at most *limit* characters (an error message may quote what it refuses).

    >>> shown("no such table '\\x00\\ud800'")
    "no such table '\\\\u0000\\\\ud800'"
    """
    out = []
    for ch in text:
        if unicodedata.category(ch) in REFUSED_CATEGORIES:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    joined = "".join(out)
    return joined if len(joined) <= limit else joined[:limit - 1] + "…"
