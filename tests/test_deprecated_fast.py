"""The spellings of the removed fast path that keep working one version, with a warning."""

from __future__ import annotations

import importlib

import pytest


def test_commerce_fast_names_the_compiled_simulator_with_a_warning() -> None:
    compiled = importlib.import_module("commerce.compiled")
    fast = importlib.import_module("commerce.fast")  # importing alone does not warn
    with pytest.warns(DeprecationWarning, match="commerce.compiled"):
        from commerce.fast import run_batch
    assert run_batch is compiled.run_batch
    with pytest.warns(DeprecationWarning):
        assert fast.BatchResult is compiled.BatchResult
    with pytest.raises(AttributeError):
        fast._policies  # noqa: B018 - private names are not re-exported
