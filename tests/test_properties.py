"""Invariants of the whole tool on generated programs: it never crashes, its output parses, a
second run changes nothing, and a file with nothing to migrate is left byte-identical.

Every pass runs (select ALL) on every target. Examples are derandomized so CI sees the same
programs on every run; the budget keeps the module near 60 s on two cores.
"""

from __future__ import annotations

import ast
import importlib.util
import subprocess
import sys
from pathlib import Path

import hypothesmith
import libcst as cst
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from strategies import plain_loops, training_scripts

from trncodemod.config import Settings
from trncodemod.pipeline.engine import migrate_file
from trncodemod.pipeline.migrate import MigrationError, migrate_text
from trncodemod.targets import target_names

ROOT = Path(__file__).resolve().parent.parent
TARGETS = st.sampled_from(target_names())
FAST = {
    "deadline": None,
    "derandomize": True,
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large],
}


# The clear per-file refusals; anything else (an "internal error") is a bug.
REFUSALS = ("syntax error", "too deeply nested", "indentation ")


def migrate_checked(text: str, target: str) -> str:
    """Migrate ``text``, assert the output is valid Python and a fixed point, return it."""
    config = Settings(target=target)
    try:
        out = migrate_text(text, "generated.py", config).text
    except MigrationError as err:
        assert err.reason.startswith(REFUSALS), err.reason
        if err.reason.startswith("syntax error"):  # only what CPython itself refuses
            with pytest.raises((SyntaxError, RecursionError, MemoryError, ValueError)):
                compile(text, "generated.py", "exec", ast.PyCF_ONLY_AST)
        return text
    cst.parse_module(out)
    compile(out, "generated.py", "exec", ast.PyCF_ONLY_AST)
    again = migrate_text(out, "generated.py", config).text
    assert again == out, "a second run changed the output"
    return out


@settings(max_examples=8, **FAST)
@given(program=training_scripts(), target=TARGETS)
def test_training_scripts_migrate_to_valid_python_that_a_second_run_leaves_alone(
    program: str, target: str
) -> None:
    compile(program, "generated.py", "exec")
    out = migrate_checked(program, target)
    # Every generated script puts something on the GPU: the tool must notice.
    assert out != program


@settings(max_examples=10, **FAST)
@given(program=plain_loops(), target=TARGETS)
def test_loops_without_pytorch_are_left_byte_identical(program: str, target: str) -> None:
    migration = migrate_text(program, "plain.py", Settings(target=target))
    assert migration.text == program
    assert [f for f in migration.findings if f.fixed] == []


# Appended so that the GPU-only passes parse and walk the generated code instead of skipping it.
GPU_TAIL = "\nimport torch\nx = torch.tensor([1.0]).cuda()\nprint(x.item())\n"


@settings(max_examples=25, **FAST)
@given(program=hypothesmith.from_node(), target=TARGETS)
@example(program="x = " + "(" * 300 + "1" + ")" * 300 + "\n", target="xla-2.9")
@example(program="class A:\n\x0c pass\n", target="xla-2.1")  # a form feed in the indent
def test_arbitrary_modules_never_crash_and_stay_valid(program: str, target: str) -> None:
    migrate_checked(program + GPU_TAIL, target)


@settings(max_examples=60, **FAST)
@given(program=hypothesmith.from_grammar(), target=TARGETS)
def test_arbitrary_token_streams_are_migrated_or_refused_with_a_reason(
    program: str, target: str
) -> None:
    migrate_checked(program, target)


def test_a_loop_stepping_another_librarys_optimizer_is_left_alone() -> None:
    program = (
        "from mylib import DataLoader, Optimizer\n"
        "optimizer = Optimizer()\n"
        "for batch in DataLoader(range(10)):\n"
        "    optimizer.step()\n"
    )
    assert migrate_text(program, "plain.py", Settings()).text == program


# CPython accepts nesting LibCST's native parser cannot survive (a segfault at ~2000 brackets).
@pytest.mark.parametrize(
    "program",
    [
        "import torch\nm = x.cuda()\nx = " + "(" * 2000 + "1" + ")" * 2000 + "\n",
        "import torch\nm = x.cuda()\nx = " + "[" * 199 + "]" * 199 + "\n",
        "import torch\nm = x.cuda()\ns = '" + "(" * 3000 + "'\n",
        "import torch\nm = x.cuda()\nx = " + "-" * 1200 + "1\n",
    ],
    ids=["2000-parens", "199-brackets", "brackets-in-a-string", "1200-unary-minus"],
)
def test_deep_nesting_is_migrated_or_refused_with_a_reason(program: str) -> None:
    migrate_checked(program, "xla-2.9")


NEWLINES = st.sampled_from(["\n", "\r\n"])
ENCODINGS = st.sampled_from(["utf-8", "utf-8-sig", "latin-1"])


@settings(max_examples=4, **FAST)
@given(program=training_scripts(), newline=NEWLINES, encoding=ENCODINGS, target=TARGETS)
def test_files_keep_their_encoding_and_newlines(
    tmp_path_factory: pytest.TempPathFactory,
    program: str,
    newline: str,
    encoding: str,
    target: str,
) -> None:
    cookie = "# -*- coding: latin-1 -*-\n# café\n" if encoding == "latin-1" else "# é\n"
    text = (cookie + program).replace("\n", newline)
    path: Path = tmp_path_factory.mktemp("prop") / "train.py"
    raw = text.encode(encoding)
    path.write_bytes(raw)
    outcome = migrate_file(path, "train.py", Settings(target=target))
    assert outcome.error is None, outcome.error_text()
    assert outcome.new is not None and outcome.old == raw
    assert path.read_bytes() == raw, "migrate_file computes; it never writes"
    new_text = outcome.new.decode(encoding)
    assert outcome.new.startswith(b"\xef\xbb\xbf") == (encoding == "utf-8-sig")
    if newline == "\r\n":
        assert "\n" not in new_text.replace("\r\n", ""), "a bare LF was mixed into a CRLF file"
    assert new_text.startswith(cookie.replace("\n", newline))


def _corpus_generator():
    spec = importlib.util.spec_from_file_location("corpus", ROOT / "benchmarks" / "corpus.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.generate


# 1000 files take about four minutes with -j 2 on the CI machine (about 4 files/s with every pass
# of wave 2), so CI runs 150; `benchmarks/run.py --files 1000` runs the full size.
CORPUS_FILES = 150


def test_a_real_world_like_tree_migrates_without_a_single_error(tmp_path: Path) -> None:
    tree = tmp_path / "repo"
    counts = _corpus_generator()(tree, CORPUS_FILES, 0.1)
    assert sum(counts.values()) == CORPUS_FILES
    result = subprocess.run(
        [sys.executable, "-m", "trncodemod", "apply", "--dry-run", "--no-cache"]
        + ["--exit-zero", "-j", "2", "."],
        cwd=tree,
        capture_output=True,
        timeout=600,
    )
    err = result.stderr.decode()
    # 1 only for blockers left, which --exit-zero never forgives; errors would be 2.
    assert result.returncode in (0, 1), err[-3000:]
    assert "[error]" not in err and "internal error" not in err, err[-3000:]
    assert f"{CORPUS_FILES} files checked" in err
    assert result.stdout.count(b"\n+++ b/") >= counts["training"] // 2
    subprocess.run(["git", "init", "-q"], cwd=tree, check=True)
    check = subprocess.run(
        ["git", "apply", "--check", "-"], input=result.stdout, cwd=tree, capture_output=True
    )
    assert check.returncode == 0, check.stderr.decode()
