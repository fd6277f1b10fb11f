"""The ruleset families, each a package of its own, registered here and nowhere else.

Adding a family is one package plus one line below (see ``docs/architecture.md``).
"""

from __future__ import annotations

from commerce.families import cox, trading, vingtun, widow
from commerce.family import register_family

register_family(trading.FAMILY)
register_family(widow.FAMILY)
register_family(cox.FAMILY)
register_family(vingtun.FAMILY)
