"""Every table of measured figures in the docs comes from a command: ``scripts/figures.py``
finds each between its markers, reruns its command and writes its output back."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest
from scripts.figures import PAGES, ROOT, blocks, main, table_shape, unmarked_tables

from commerce.cli import build_parser


@pytest.mark.parametrize("page", PAGES)
def test_every_table_is_made_by_a_command_or_marked_as_reference_data(page: str) -> None:
    path = ROOT / page
    assert not unmarked_tables(path), (
        f"{page}: the tables at lines {unmarked_tables(path)} have no generating command: put "
        "each between <!-- figures NAME: COMMAND --> and <!-- /figures -->, or mark reference "
        "data with <!-- not-figures: why --> on the line before it")


def test_each_commerce_bench_command_of_the_docs_parses() -> None:
    found = [b for page in PAGES for b in blocks(ROOT / page)
             if b.command.startswith("commerce ")]
    assert len(found) >= 4
    parser = build_parser()
    for block in found:
        args = parser.parse_args(shlex.split(block.command)[1:])
        assert args.command, block.command
        assert table_shape(block.body, rows=True), f"{block.name}: no table between its markers"


TABLE = "print('made by a command'); print(); print('| a | b |'); print('|---|---:|'); "


def _page(tmp_path: Path, rows: str) -> Path:
    page = tmp_path / "page.md"
    page.write_text(
        "# A page\n\nProse.\n\n"
        f'<!-- figures demo: python -c "{TABLE}{rows}" -->\n'
        "| old | table |\n|---|---|\n| 1 | 2 |\n<!-- /figures -->\n\n"
        "<!-- not-figures: reference data -->\n| x |\n|---|\n| y |\n", encoding="utf-8")
    return page


def test_figures_rewrites_the_table_between_the_markers(tmp_path: Path) -> None:
    page = _page(tmp_path, "print('| 1 | 2 |')")
    assert main(["--check", str(page)]) == 1  # the old table has other columns
    assert main([str(page)]) == 0
    text = page.read_text(encoding="utf-8")
    assert "made by a command\n\n| a | b |\n|---|---:|\n| 1 | 2 |\n<!-- /figures -->" in text
    assert "| old |" not in text and "| y |" in text
    assert main(["--check", str(page)]) == 0
    assert main([str(page)]) == 0 and page.read_text(encoding="utf-8") == text
    assert unmarked_tables(page) == []


def test_a_table_without_a_command_is_found(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# A page\n\n| a | b |\n|---|---|\n| 1 | 2 |\n", encoding="utf-8")
    assert unmarked_tables(page) == [3]
    page.write_text("<!-- figures x: python -V -->\n| a |\n", encoding="utf-8")
    with pytest.raises(ValueError, match="never closed"):
        blocks(page)


def test_a_failing_command_fails_the_run_and_keeps_the_page(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str],
                                                            ) -> None:
    page = _page(tmp_path, "import sys; sys.exit(3)")
    before = page.read_text(encoding="utf-8")
    assert main([str(page)]) == 1
    assert page.read_text(encoding="utf-8") == before
    assert "failed (3)" in capsys.readouterr().err
    assert sys.executable


def test_every_command_of_the_docs_names_a_script_that_exists() -> None:
    found = [b for page in PAGES for b in blocks(ROOT / page)]
    assert {b.kind for b in found} == {"", "long", "by hand"}
    for block in found:
        words = shlex.split(block.command)
        assert words[0] in ("commerce", "python"), block.command
        if words[0] == "python":
            assert (ROOT / words[1]).is_file(), block.command


def test_the_quick_check_runs_a_documented_command_and_compares_its_table() -> None:
    page = ROOT / "docs" / "research.md"
    assert main(["--check", "--quick", "--only", "reinforce", str(page)]) == 0
