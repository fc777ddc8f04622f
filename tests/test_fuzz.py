"""Fuzzing with real-shaped training scripts: the examples and the golden inputs, mutated the way
people's code differs from them (lines deleted, names renamed, including to the names the tool
introduces, loops duplicated, `.cuda()`, `.item()` and `optimizer.step()` inserted at random
statements). Every mutant that compiles must migrate without an internal error, to code that
parses, that a second run leaves alone; and `apply` over a tree of mutants writes nothing outside
it.

CI runs a modest number of mutants. Run more locally (the figures in docs/trust-model.md come from this):

    TRNCODEMOD_FUZZ=500 .venv/bin/python -m pytest tests/test_fuzz.py -q -p no:randomly

Each mutant is reproducible from its seed (``mutant(seed)``); failing ones are written to
``$TRNCODEMOD_FUZZ_OUT`` when set.
"""

from __future__ import annotations

import difflib
import os
import random
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner

from trncodemod.cli import main
from trncodemod.config import Settings
from trncodemod.pipeline.migrate import MigrationError, migrate_text

ROOT = Path(__file__).resolve().parent.parent
COUNT = int(os.environ.get("TRNCODEMOD_FUZZ", "24"))
BATCH = 12
IDENTIFIER = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*\b")
# Names renamed into: the tool's own (a collision it must avoid) and ordinary ones.
NEW_NAMES = ("torch_xla", "xm", "xr", "pl", "xmp", "_log", "device", "loss", "model", "step")
INSERTS = (
    "{name} = {name}.cuda()",
    "{name}.cuda()",
    "_value = {name}.item()",
    "print({name}.item())",
    "optimizer.step()",
    "{name}.step()",
)


@cache
def seeds() -> tuple[tuple[str, str], ...]:
    paths = sorted(ROOT.glob("examples/*.py")) + sorted(ROOT.glob("golden/*/*.in.py"))
    found = []
    for path in paths:
        text = path.read_text("utf-8")
        if "torch" in text:
            found.append((path.relative_to(ROOT).as_posix(), text))
    return tuple(found)


def _compiles(text: str) -> bool:
    try:
        compile(text, "mutant.py", "exec")
    except (SyntaxError, ValueError):
        return False
    return True


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]


def _code_lines(lines: list[str]) -> list[int]:
    return [i for i, line in enumerate(lines) if line.strip() and not line.lstrip().startswith("#")]


def _delete(rng: random.Random, lines: list[str]) -> list[str]:
    code = _code_lines(lines)
    if not code:  # earlier mutations deleted every statement
        return lines
    index = rng.choice(code)
    return lines[:index] + lines[index + 1 :]


def _rename(rng: random.Random, lines: list[str]) -> list[str]:
    text = "\n".join(lines)
    names = sorted(set(IDENTIFIER.findall(text)) - {"import", "from", "def", "for", "in", "if"})
    if not names:
        return lines
    old, new = rng.choice(names), rng.choice(NEW_NAMES)
    return re.sub(rf"\b{re.escape(old)}\b", new, text).split("\n")


def _duplicate_loop(rng: random.Random, lines: list[str]) -> list[str]:
    loops = [i for i in _code_lines(lines) if re.match(r"\s*(async\s+)?(for|while)\b", lines[i])]
    if not loops:
        return lines
    start = rng.choice(loops)
    indent = len(_indent(lines[start]))
    end = start + 1
    while end < len(lines) and (not lines[end].strip() or len(_indent(lines[end])) > indent):
        end += 1
    return lines[:end] + lines[start:end] + lines[end:]


def _insert(rng: random.Random, lines: list[str]) -> list[str]:
    code = _code_lines(lines)
    if not code:
        return lines
    index = rng.choice(code)
    names = IDENTIFIER.findall(lines[index]) or ["x"]
    statement = rng.choice(INSERTS).format(name=rng.choice(names))
    return lines[:index] + [_indent(lines[index]) + statement] + lines[index:]


MUTATIONS = (_delete, _rename, _duplicate_loop, _insert, _insert)


@dataclass(frozen=True)
class Mutant:
    seed: int
    origin: str
    steps: tuple[str, ...]
    text: str


def mutant(seed: int) -> Mutant:
    """A mutant of one seed script that compiles: one to four mutations, each kept only when the
    result still compiles."""
    rng = random.Random(seed)
    # A quarter from the three full example scripts, the rest from the ~300 golden inputs.
    examples = [s for s in seeds() if s[0].startswith("examples/")]
    others = [s for s in seeds() if not s[0].startswith("examples/")]
    origin, text = rng.choice(examples if rng.random() < 0.25 else others)
    lines = text.split("\n")
    steps = []
    for _ in range(rng.randint(1, 4)):
        mutation = rng.choice(MUTATIONS)
        for _attempt in range(20):
            candidate = mutation(rng, lines)
            if _compiles("\n".join(candidate)):
                lines = candidate
                steps.append(mutation.__name__.lstrip("_"))
                break
    return Mutant(seed, origin, tuple(steps), "\n".join(lines))


def check_mutant(item: Mutant) -> str | None:
    """What is wrong with migrating ``item`` (None: nothing)."""
    settings = Settings(target=("xla-2.9", "xla-2.5", "xla-2.1", "neuron")[item.seed % 4])
    try:
        first = migrate_text(item.text, "mutant.py", settings).text
    except MigrationError as err:
        if "internal error" in err.reason or "fixed point" in err.reason:
            return f"{err.reason} (line {err.line})"
        return None  # the tool declined the input and said why (e.g. too deeply nested)
    if not _compiles(first):
        return "the migrated code does not compile"
    try:
        second = migrate_text(first, "mutant.py", settings).text
    except MigrationError as err:
        return f"second run: {err.reason} (line {err.line})"
    if second != first:
        diff = difflib.unified_diff(first.splitlines(True), second.splitlines(True), n=1)
        return "a second run changes the output:\n" + "".join(list(diff)[2:12])
    return None


def _report(failures: list[tuple[Mutant, str]]) -> str:
    out = os.environ.get("TRNCODEMOD_FUZZ_OUT")
    lines = []
    for item, problem in failures:
        lines.append(f"seed {item.seed} ({item.origin}, {'+'.join(item.steps)}): {problem}")
        if out:
            Path(out).mkdir(parents=True, exist_ok=True)
            (Path(out) / f"mutant_{item.seed}.py").write_text(item.text, "utf-8")
    return "\n".join(lines)


@pytest.mark.parametrize("batch", range(max(1, -(-COUNT // BATCH))))
def test_mutated_training_scripts_migrate_cleanly_and_settle(batch: int) -> None:
    items = [mutant(seed) for seed in range(batch * BATCH, min(COUNT, (batch + 1) * BATCH))]
    failures = [(item, problem) for item in items if (problem := check_mutant(item))]
    assert not failures, _report(failures)


def test_apply_over_a_tree_of_mutants_writes_only_inside_it(tmp_path: Path, monkeypatch) -> None:
    tree, beside = tmp_path / "tree", tmp_path / "beside"
    tree.mkdir()
    beside.mkdir()
    (beside / "victim.py").write_text("import torch\nm = torch.nn.Linear(2, 2).cuda()\n")
    for seed in range(min(COUNT, BATCH)):
        (tree / f"m{seed}.py").write_text(mutant(seed).text)
    # A link out of the tree, as a repository could hold: discovery skips it, writing refuses it.
    (tree / "link.py").symlink_to(beside / "victim.py")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["apply", "--no-cache", "-j", "1", "tree"])
    assert result.exit_code in (0, 1), result.stderr
    assert "internal error" not in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["beside", "tree"]
    assert [p.name for p in beside.iterdir()] == ["victim.py"]
    assert (beside / "victim.py").read_text() == "import torch\nm = torch.nn.Linear(2, 2).cuda()\n"
    names = {p.name for p in tree.iterdir()}
    assert names == {f"m{seed}.py" for seed in range(min(COUNT, BATCH))} | {"link.py"}


@pytest.mark.parametrize("target", ["xla-2.9", "neuron"])
def test_an_import_one_pass_adds_brings_back_the_passes_it_concerns(target: str) -> None:
    # Found by the fuzzer (seed 359): the bucket helper's `import torch` makes `torch.device`
    # resolve, but the device pass was not run again, so a second run still had work to do.
    # (The collate masks its pads, so the bucket rewrite, and its import, are made.)
    text = (
        "import torch.nn as nn\nfrom torch.nn.utils.rnn import pad_sequence\n\n\n"
        "def collate(batch):\n    src = pad_sequence(batch, batch_first=True, padding_value=0)\n"
        '    return {"input_ids": src, "attention_mask": src != 0}\n\n\n'  # TRN214 pads: masked
        "def main():\n"
        '    return torch.device("cuda" if torch.cuda.is_available() else "cpu")\n'
    )
    settings = Settings(target=target)
    first = migrate_text(text, "t.py", settings).text
    assert migrate_text(first, "t.py", settings).text == first
    assert 'torch.device("cuda"' not in first
