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


NO_KERNEL = "the vingtun family has no compiled kernel"


def test_the_engine_fast_is_the_compiled_engine_with_a_warning() -> None:
    from commerce.apps.runner import choose_engine
    from commerce.errors import CommerceError
    from commerce.rules import find_ruleset

    rules = find_ruleset("vingt-un")
    with pytest.warns(DeprecationWarning, match="compiled"), \
            pytest.raises(CommerceError, match=f"^--engine compiled: {NO_KERNEL}$"):
        choose_engine(rules, 4, ["random"], "fast")
    assert choose_engine(rules, 4, ["random"], "auto") == ("reference", NO_KERNEL)


def test_engine_fast_on_the_command_line_says_it_is_now_compiled(
        capsys: pytest.CaptureFixture[str]) -> None:
    from commerce.cli import main

    argv = ["simulate", "--rules", "vingt-un", "--games", "2", "--bots", "random"]
    with pytest.warns(DeprecationWarning, match="--engine compiled"):
        assert main([*argv, "--engine", "fast"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["commerce: note: --engine fast is deprecated; it is now --engine compiled",
                   f"commerce simulate: error: --engine compiled: {NO_KERNEL}"]
    assert main([*argv, "--engine", "compiled"]) == 2
    assert capsys.readouterr().err.strip() == (
        f"commerce simulate: error: --engine compiled: {NO_KERNEL}")


def test_the_environments_fast_keyword_is_read_with_a_warning() -> None:
    from tests.harness.rl_deps import need

    need("pettingzoo")
    need("gymnasium")
    from commerce.rl import pettingzoo_env
    from commerce.rl.gym import CommerceGym

    plain = pettingzoo_env("peel", 4)
    plain.reset(seed=3)
    with pytest.warns(DeprecationWarning, match="fast="):
        env = pettingzoo_env("peel", 4, fast=True)
    env.reset(seed=3)
    assert env.unwrapped.table.state == plain.unwrapped.table.state
    with pytest.warns(DeprecationWarning, match="fast="):
        CommerceGym("peel", 4, fast=False)
