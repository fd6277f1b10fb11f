"""Rules of each ruleset family, behind the common API of :mod:`commerce.engine`."""
