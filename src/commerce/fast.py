"""Deprecated: the compiled batch simulator is now :mod:`commerce.compiled`.

Every public name of :mod:`commerce.compiled` is still found here for one version; reading
one warns (``DeprecationWarning``). Importing the module alone does not warn.

>>> import warnings
>>> import commerce.compiled
>>> import commerce.fast
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     commerce.fast.run_batch is commerce.compiled.run_batch
True
>>> caught[0].category.__name__
'DeprecationWarning'
"""

from __future__ import annotations

import warnings
from typing import Any

from commerce import compiled as _compiled

__all__ = list(_compiled.__all__)


def __getattr__(name: str) -> Any:
    """A public name of :mod:`commerce.compiled`, with a ``DeprecationWarning``."""
    if name.startswith("_") or not hasattr(_compiled, name):
        raise AttributeError(f"module 'commerce.fast' has no attribute {name!r}")
    warnings.warn("commerce.fast is deprecated: import from commerce.compiled",
                  DeprecationWarning, stacklevel=2)
    return getattr(_compiled, name)
