"""Probes: what people write and what a hostile repository plants, run through the real CLI
(issue 37, "never fail on what people write").

    python benchmarks/hostile_inputs.py [--only NAME ...] [--timeout 60]

Each probe builds its input in a temporary folder, runs ``python -m trncodemod`` (the code on
``sys.path``: ``PYTHONPATH=<another checkout>`` probes that one) under an address-space limit and
a timeout, and says PASS or FAIL with what it saw. Exit status: the number of failed probes.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import resource
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

MEMORY_LIMIT = 3 << 30
TIMEOUT = 60.0
HOSTILE = "<img src=http://example.invalid/x onerror=alert(1)>"
TRAINING = (
    "import torch\n"
    "model = torch.nn.Linear(4, 2).cuda()\n"
    "opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
    "for i in range(3):\n"
    "    loss = model(torch.randn(2, 4).cuda()).sum()\n"
    "    loss.backward()\n"
    "    opt.step()\n"
)


@dataclass
class Ran:
    code: int | None  # None: killed at the timeout
    stdout: bytes
    stderr: bytes
    seconds: float

    @property
    def text(self) -> str:
        return (self.stdout + self.stderr).decode("utf-8", "replace")

    @property
    def traceback(self) -> bool:
        return b"Traceback (most recent call last)" in self.stdout + self.stderr


def _limit() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def cli(*args: str, cwd: Path, timeout: float | None = None, env: dict | None = None) -> Ran:
    start = time.monotonic()
    process = subprocess.Popen(
        [sys.executable, "-m", "trncodemod", *args],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=_limit,
        start_new_session=True,
        env={**os.environ, "XDG_CACHE_HOME": str(cwd / ".xdg"), **(env or {})},
    )
    try:
        out, err = process.communicate(timeout=timeout or TIMEOUT)
        code: int | None = process.returncode
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        out, err = process.communicate()
        code = None
    return Ran(code, out, err, time.monotonic() - start)


def git(*args: str, cwd: Path, data: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["git", "-c", "user.email=p@example.invalid", "-c", "user.name=probe", *args],
        cwd=cwd,
        input=data,
        capture_output=True,
    )


def notebook(path: Path, *sources: str) -> None:
    cells = [
        {
            "cell_type": "code",
            "execution_count": None,
            "metadata": {},
            "outputs": [],
            "source": source.splitlines(keepends=True),
        }
        for source in sources
    ]
    document = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    path.write_text(json.dumps(document, indent=1) + "\n")


def _code_cells(path: Path) -> list[str]:
    cells = json.loads(path.read_text())["cells"]
    return ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]


def _python(source: str) -> str:
    """A cell with its IPython lines made `pass` (this script's own rule, not the tool's)."""
    lines = source.split("\n")
    pattern = re.compile(r"^\s*(?:[!%?]|[\w.\[\], ]+=\s*[!%]|[\w.]+\?\??\s*$)")
    return "\n".join("pass" if pattern.match(line) else line for line in lines)


def _migrated_notebook(folder: Path, *sources: str) -> tuple[Ran, list[str] | str]:
    """Apply the dry run's patch to the notebook; its code cells, or why there are none."""
    git("init", "-q", cwd=folder)
    notebook(folder / "nb.ipynb", *sources)
    ran = cli("apply", "--dry-run", "--no-cache", "nb.ipynb", cwd=folder)
    if ran.code not in (0, 1) or b"error" in ran.stderr.split(b"\n")[-2]:
        return ran, f"exit {ran.code}: {ran.stderr.decode(errors='replace')[-300:]}"
    applied = git("apply", "-", cwd=folder, data=ran.stdout)
    if applied.returncode:
        return ran, f"git apply: {applied.stderr.decode(errors='replace')}"
    return ran, _code_cells(folder / "nb.ipynb")


# -- notebooks ----------------------------------------------------------------------------------


def probe_notebook_ipython_lines(folder: Path) -> tuple[bool, str]:
    magic = (
        "VERSION = !python --version\nfiles = !ls\n??torch\ntorch.zeros?\n%matplotlib inline\n"
        "pip install -q torch\nx = torch.zeros(2,  # how many?\n    3)"
    )
    ran, cells = _migrated_notebook(
        folder, "import torch", magic, "m = torch.nn.Linear(2, 2).cuda()"
    )
    if isinstance(cells, str):
        return False, cells
    return cells[1] == magic and "torch_xla" in cells[2], f"cell 2 after: {cells[1]!r}"


def probe_notebook_emptied_cells(folder: Path) -> tuple[bool, str]:
    sources = (
        "import torch\nimport torch.cuda\nfrom torch.cuda.amp import GradScaler",
        "torch.backends.cudnn.benchmark = True",
        "assert torch.cuda.is_available()",
        "scaler = GradScaler()",
        "model = torch.nn.Linear(4, 2).cuda()\nopt = torch.optim.SGD(model.parameters(), lr=0.1)",
        "for i in range(3):\n    loss = model(torch.randn(2, 4).cuda()).sum()\n"
        "    scaler.scale(loss).backward()\n    scaler.step(opt)\n    scaler.update()",
    )
    ran, cells = _migrated_notebook(folder, *sources)
    if isinstance(cells, str):
        return False, cells
    for number, cell in enumerate(cells, 1):
        try:
            ast.parse(_python(cell))
        except SyntaxError as err:
            return False, f"code cell {number} does not parse: {err}"
    return all("GradScaler()" not in c.split("\n", 1)[0] for c in cells[3:4]), "every cell parses"


def probe_notebook_import_in_first_cell_that_uses_it(folder: Path) -> tuple[bool, str]:
    sources = (
        "from transformers import AutoModel\nmodel = AutoModel.from_pretrained('x')",
        "model.cuda()",
        "import torch\nx = torch.zeros(2)",
    )
    ran, cells = _migrated_notebook(folder, *sources)
    if isinstance(cells, str):
        return False, cells
    first_use = next(i for i, c in enumerate(cells) if "torch_xla." in c)
    imported = next(i for i, c in enumerate(cells) if re.search(r"^import torch_xla$", c, re.M))
    return imported <= first_use, f"used in code cell {first_use + 1}, imported in {imported + 1}"


# -- the cache ----------------------------------------------------------------------------------


def probe_cache_names_the_file_it_is_asked_about(folder: Path) -> tuple[bool, str]:
    (folder / "a.py").write_text(TRAINING)
    (folder / "b.py").write_text(TRAINING)
    cache = ["--cache-dir", str(folder / ".cache")]
    cli("check", *cache, "--format", "json", "a.py", cwd=folder)
    cached = cli("check", *cache, "--format", "json", "a.py", "b.py", cwd=folder)
    fresh = cli("check", "--no-cache", "--format", "json", "a.py", "b.py", cwd=folder)

    def findings(ran: Ran) -> list:
        return json.loads(ran.stdout)["findings"]

    same = findings(cached) == findings(fresh)
    return same, "check with the cache " + ("==" if same else "!=") + " check --no-cache"


# -- the fleet report ---------------------------------------------------------------------------


def _result(name: str, **fields: object) -> dict:
    return {"name": name, "status": "migrated", "counts": {}, "timings": {"total": 1.0}, **fields}


def _report(out: Path) -> tuple[Ran, str, str]:
    ran = cli("campaign", "report", str(out), cwd=out.parent)
    read = lambda name: (out / name).read_text(errors="replace") if (out / name).is_file() else ""  # noqa: E731
    return ran, read("report.html"), read("report.md")


def _live(html: str) -> list[str]:
    """Markup in the page that a browser would run or fetch."""
    return re.findall(r"<img[^>]*>|<script>alert", html)


def probe_report_escapes_hand_edited_fields(folder: Path) -> tuple[bool, str]:
    out = folder / "out"
    (out / "r").mkdir(parents=True)
    result = _result(
        "r",
        rules={f"<script>alert(1)</script>{HOSTILE}": {"findings": 1, "blockers": 0}},
        inputs={"commit": [HOSTILE]},
        branch="b",
        branch_commit=[HOSTILE],
    )
    (out / "r" / "result.json").write_text(json.dumps(result))
    ran, html, _ = _report(out)
    live = _live(html)
    return ran.code == 0 and not live, f"exit {ran.code}; live markup: {live[:2]}"


def probe_report_reads_only_inside_out(folder: Path) -> tuple[bool, str]:
    out = folder / "out"
    (out / "r").mkdir(parents=True)
    (folder / "x").mkdir()
    (folder / "x" / "migration.patch").write_text("+SECRET FROM OUTSIDE --out\n")
    (folder / "x" / "description.md").write_text("SECRET FROM OUTSIDE --out\n")
    (out / "r" / "result.json").write_text(json.dumps(_result("../x")))
    ran, html, markdown = _report(out)
    leaked = "SECRET" in html + markdown
    return ran.code == 0 and not leaked, f"exit {ran.code}; outside file embedded: {leaked}"


def probe_report_backtick_in_a_file_name_fetches_nothing(folder: Path) -> tuple[bool, str]:
    repo = folder / "repo"
    repo.mkdir()
    git("init", "-q", cwd=repo)
    (repo / "a`![x](https:example.invalid)`.py").write_text(TRAINING)  # no `/` in a name
    git("add", "-A", cwd=repo)
    git("commit", "-qm", "base", cwd=repo)
    description = folder / "description.md"
    ran = cli("pr", ".", "--description", str(description), cwd=repo)
    if not description.exists():
        return False, f"pr wrote no description (exit {ran.code}): {ran.text[-300:]}"
    out = folder / "out"
    (out / "r").mkdir(parents=True)
    (out / "r" / "description.md").write_bytes(description.read_bytes())
    (out / "r" / "result.json").write_text(json.dumps(_result("r")))
    report, html, _ = _report(out)
    live = _live(html)
    return report.code == 0 and not live, f"exit {report.code}; live markup: {live[:2]}"


def probe_report_md_escapes_a_specs_url_and_ref(folder: Path) -> tuple[bool, str]:
    spec = folder / "fleet.toml"
    spec.write_text(
        textwrap.dedent(
            f"""\
            [[repos]]
            name = "r"
            url = "https://example.invalid/{HOSTILE}"
            ref = "{HOSTILE.replace('"', "'")}"
            """
        )
    )
    out = folder / "out"
    cli("campaign", "run", str(spec), "--out", str(out), cwd=folder, timeout=120)
    ran, _, markdown = _report(out)
    live = re.findall(r"(?<!\\)<img[^>]*>", markdown)  # `\<img` is text in Markdown
    return ran.code == 0 and bool(markdown) and not live, f"exit {ran.code}; raw HTML: {live[:1]}"


def probe_report_repository_named_like_a_report(folder: Path) -> tuple[bool, str]:
    out = folder / "out"
    (out / "report.html").mkdir(parents=True)
    (out / "report.html" / "result.json").write_text(json.dumps(_result("report.html")))
    ran, _, _ = _report(out)
    spec = folder / "fleet.toml"
    spec.write_text('[[repos]]\nname = "report.md"\nurl = "https://example.invalid/r"\n')
    run = cli("campaign", "run", str(spec), "--out", str(folder / "out2"), cwd=folder)
    refused = run.code == 2 and "report" in run.text and not run.traceback
    return not ran.traceback and refused, (
        f"report: exit {ran.code}, traceback {ran.traceback}; spec: exit {run.code}"
    )


# -- bounded reads, clear errors ----------------------------------------------------------------


def _doctor(folder: Path, requirements: str, fifo: str | None = None) -> tuple[bool, str]:
    if fifo:
        os.mkfifo(folder / fifo)
    if requirements:
        (folder / "requirements.txt").write_text(requirements)
    ran = cli("doctor", ".", cwd=folder, timeout=20)
    ok = ran.code is not None and not ran.traceback and "not a regular file" in ran.text
    return ok, f"exit {ran.code} in {ran.seconds:.1f} s: {ran.text.strip()[-160:]}"


def probe_doctor_include_dev_zero(folder: Path) -> tuple[bool, str]:
    return _doctor(folder, "torch==2.9.0\n-r /dev/zero\n")


def probe_doctor_include_fifo(folder: Path) -> tuple[bool, str]:
    return _doctor(folder, "torch==2.9.0\n-r fifo.txt\n", fifo="fifo.txt")


def probe_doctor_requirements_fifo(folder: Path) -> tuple[bool, str]:
    return _doctor(folder, "", fifo="requirements.txt")


def probe_sarif_with_a_file_name_not_utf8(folder: Path) -> tuple[bool, str]:
    with open(os.path.join(os.fsencode(folder), b"caf\xe9.py"), "wb") as handle:
        handle.write(TRAINING.encode())
    ran = cli("check", "--no-cache", "--format", "sarif", ".", cwd=folder)
    try:
        json.loads(ran.stdout)
    except ValueError:
        return False, f"exit {ran.code}: {ran.text.strip()[-200:]}"
    return ran.code == 1 and not ran.traceback, f"exit {ran.code}"


def probe_campaign_with_a_file_name_not_utf8(folder: Path) -> tuple[bool, str]:
    repo = folder / "repo"
    repo.mkdir()
    git("init", "-q", cwd=repo)
    with open(os.path.join(os.fsencode(repo), b"caf\xe9.py"), "wb") as handle:
        handle.write(TRAINING.encode())
    git("add", "-A", cwd=repo)
    git("commit", "-qm", "base", cwd=repo)
    (folder / "fleet.toml").write_text('[[repos]]\nname = "r"\nurl = "repo"\n')
    ran = cli("campaign", "run", "fleet.toml", "--out", "out", cwd=folder, timeout=300)
    try:
        result = json.loads((folder / "out" / "r" / "result.json").read_text())
    except (OSError, ValueError) as err:
        return False, f"exit {ran.code}: no result ({err})"
    return result["status"] == "migrated", f"{result['status']}: {result.get('reason') or ''}"


def probe_text_output_of_a_file_name_not_utf8(folder: Path) -> tuple[bool, str]:
    with open(os.path.join(os.fsencode(folder), b"caf\xe9.py"), "wb") as handle:
        handle.write(TRAINING.encode())
    ran = cli("check", "--no-cache", ".", cwd=folder, env={"PYTHONIOENCODING": "utf-8:strict"})
    return ran.code == 1 and not ran.traceback, f"exit {ran.code}: {ran.text.strip()[-160:]}"


def probe_golden_check_deep_case(folder: Path) -> tuple[bool, str]:
    (folder / "p").mkdir()
    (folder / "p" / "deep.in.py").write_text("import torch\nf = " + "lambda: " * 3000 + "0\n")
    (folder / "p" / "list.in.py").write_text("import torch\nx = " + "[" * 5000 + "]" * 5000 + "\n")
    ran = cli("golden", "check", ".", cwd=folder)
    return ran.code == 1 and not ran.traceback, f"exit {ran.code}: {ran.text.strip()[-160:]}"


def probe_pyproject_nested_deep(folder: Path) -> tuple[bool, str]:
    deep = "[" * 100_000 + "]" * 100_000
    (folder / "pyproject.toml").write_text(f'[project]\nname = "x"\ndependencies = {deep}\n')
    (folder / "t.py").write_text(TRAINING)
    ran = [cli("check", "t.py", cwd=folder), cli("doctor", ".", cwd=folder)]
    ok = all(r.code is not None and not r.traceback and "nested" in r.text for r in ran)
    return ok, "; ".join(f"exit {r.code}: {r.text.strip()[-80:]}" for r in ran)


def probe_backslash_in_a_file_name(folder: Path) -> tuple[bool, str]:
    git("init", "-q", cwd=folder)
    (folder / "back\\slash.py").write_text(TRAINING)
    ran = cli("apply", "--dry-run", "--no-cache", ".", cwd=folder)
    header = next((line for line in ran.stdout.split(b"\n") if line.startswith(b"--- ")), b"")
    applied = git("apply", "--check", "-", cwd=folder, data=ran.stdout)
    return applied.returncode == 0, f"header {header.decode(errors='replace')}; git apply: " + (
        applied.stderr.decode(errors="replace").strip() or "ok"
    )


PROBES: dict[str, Callable[[Path], tuple[bool, str]]] = {
    name.removeprefix("probe_"): probe
    for name, probe in sorted(globals().items())
    if name.startswith("probe_")
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", nargs="*", choices=sorted(PROBES), default=None)
    parser.add_argument("--timeout", type=float, default=TIMEOUT)
    args = parser.parse_args()
    globals()["TIMEOUT"] = args.timeout
    failed = 0
    for name in args.only or PROBES:
        with tempfile.TemporaryDirectory(prefix="trn-probe-") as scratch:
            try:
                ok, detail = PROBES[name](Path(scratch))
            except Exception as err:  # a probe that cannot read what it got: the run failed
                ok, detail = False, f"{type(err).__name__}: {err}"
        failed += not ok
        print(f"{'PASS' if ok else 'FAIL'}  {name}: {detail}", flush=True)
    print(f"{len(args.only or PROBES) - failed} of {len(args.only or PROBES)} probes pass")
    return failed


if __name__ == "__main__":
    sys.exit(main())
