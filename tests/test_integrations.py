"""The integrations users add to their repositories: the pre-commit hooks and the GitHub Action.

The hooks run as pre-commit runs them (the entry, then the staged files), and the Action's own
`run:` steps run as a script, with its inputs substituted, on a copy of `examples/`. Neither
test needs the network; `pre-commit try-repo`, which builds the hooks' environment from the
package index, runs where TRNCODEMOD_PRE_COMMIT=1 and pre-commit is installed."""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))
# The keys pre-commit's manifest schema knows (pre_commit/clientlib.py, MANIFEST_HOOK_DICT).
MANIFEST_KEYS = {
    "id", "name", "entry", "language", "alias", "files", "exclude", "types", "types_or",
    "exclude_types", "additional_dependencies", "args", "always_run", "fail_fast",
    "pass_filenames", "description", "language_version", "log_file", "require_serial", "stages",
    "verbose", "minimum_pre_commit_version",
}  # fmt: skip


def trncodemod_command() -> list[str]:
    script = Path(sys.executable).parent / "trncodemod"
    return [str(script)] if script.is_file() else [sys.executable, "-m", "trncodemod"]


def tool_env(tmp_path: Path) -> dict[str, str]:
    return {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
    }


def copy_examples(tmp_path: Path) -> Path:
    work = tmp_path / "repo"
    work.mkdir()
    for example in EXAMPLES:
        shutil.copy(example, work / example.name)
    return work


def hooks() -> list[dict]:
    return yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text("utf-8"))


def test_hooks_file_follows_pre_commits_manifest_schema() -> None:
    loaded = hooks()
    assert [hook["id"] for hook in loaded] == ["trncodemod-check", "trncodemod-fix"]
    for hook in loaded:
        assert {"id", "name", "entry", "language"} <= hook.keys()
        assert set(hook) <= MANIFEST_KEYS, set(hook) - MANIFEST_KEYS
        assert hook["language"] == "python"
        assert set(hook["types_or"]) <= {"python", "jupyter"}
    entries = {hook["id"]: hook["entry"] for hook in loaded}
    assert entries == {"trncodemod-check": "trncodemod check", "trncodemod-fix": "trncodemod apply"}


def run_hook(hook_id: str, work: Path, tmp_path: Path) -> subprocess.CompletedProcess:
    # pre-commit runs `entry args... file...` from the repository's root.
    hook = next(h for h in hooks() if h["id"] == hook_id)
    words = hook["entry"].split()
    assert words[0] == "trncodemod"
    command = [
        *trncodemod_command(),
        *words[1:],
        *hook.get("args", []),
        *(p.name for p in EXAMPLES),
    ]
    return subprocess.run(
        command, cwd=work, env=tool_env(tmp_path), capture_output=True, text=True, check=False
    )


def test_check_hook_fails_on_findings_and_changes_nothing(tmp_path: Path) -> None:
    work = copy_examples(tmp_path)
    result = run_hook("trncodemod-check", work, tmp_path)
    assert result.returncode == 1, result.stderr
    assert re.search(r"cnn_mnist\.py:\d+:\d+: TRN\d{3} \[\*\]", result.stdout)
    for example in EXAMPLES:
        assert (work / example.name).read_bytes() == example.read_bytes()


def test_fix_hook_migrates_the_files_and_a_second_run_changes_nothing(tmp_path: Path) -> None:
    work = copy_examples(tmp_path)
    run_hook("trncodemod-fix", work, tmp_path)
    assert "torch_xla" in (work / "cnn_mnist.py").read_text("utf-8")
    migrated = {p.name: p.read_bytes() for p in work.glob("*.py")}
    run_hook("trncodemod-fix", work, tmp_path)
    assert {p.name: p.read_bytes() for p in work.glob("*.py")} == migrated


@pytest.mark.skipif(
    os.environ.get("TRNCODEMOD_PRE_COMMIT") != "1" or shutil.which("pre-commit") is None,
    reason="pre-commit try-repo installs the hooks from the package index: "
    "set TRNCODEMOD_PRE_COMMIT=1 with pre-commit installed",
)
def test_pre_commit_try_repo_runs_the_check_hook(tmp_path: Path) -> None:
    work = copy_examples(tmp_path)
    git = ["git", "-c", "user.email=t@example.com", "-c", "user.name=t"]
    subprocess.run([*git, "init", "-q"], cwd=work, check=True)
    subprocess.run([*git, "add", "."], cwd=work, check=True)
    result = subprocess.run(
        ["pre-commit", "try-repo", str(ROOT), "trncodemod-check", "--all-files"],
        cwd=work,
        env={**tool_env(tmp_path), "PRE_COMMIT_HOME": str(tmp_path / "pre-commit")},
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1, result.stdout + result.stderr
    assert "trncodemod check" in result.stdout and "Failed" in result.stdout


# The GitHub Action


def action() -> dict:
    return yaml.safe_load((ROOT / "action.yml").read_text("utf-8"))


def substitute(text: str, inputs: dict[str, str]) -> str:
    values = {f"inputs.{k}": v for k, v in inputs.items()} | {"github.action_path": str(ROOT)}

    def value(match: re.Match) -> str:
        return values[match.group(1)]

    return re.sub(r"\$\{\{\s*([\w.-]+)\s*\}\}", value, text)


def condition_holds(condition: str, inputs: dict[str, str]) -> bool:
    """The `if:` forms the Action uses: always(), inputs.X == 'v', inputs.X != 'v', joined by &&."""
    for term in (t.strip() for t in condition.split("&&")):
        if term == "always()":
            continue
        match = re.fullmatch(r"inputs\.([\w-]+) (==|!=) '([^']*)'", term)
        assert match, f"action.yml: a condition the test cannot read: {term}"
        name, operator, expected = match.groups()
        if (inputs[name] == expected) != (operator == "=="):
            return False
    return True


def run_action(work: Path, tmp_path: Path, **given: str) -> list[tuple[str, int, str]]:
    spec = action()
    inputs = {name: str(field.get("default", "")) for name, field in spec["inputs"].items()}
    inputs |= given
    ran = []
    for step in spec["runs"]["steps"]:
        if "uses" in step or not condition_holds(step.get("if", "always()"), inputs):
            continue
        if step.get("id") == "install":  # installs what the test's own environment holds
            continue
        env = {k: substitute(str(v), inputs) for k, v in step.get("env", {}).items()}
        result = subprocess.run(
            [step["shell"], "-e", "-c", substitute(step["run"], inputs)],
            cwd=work,
            env={**tool_env(tmp_path), **env},
            capture_output=True,
            text=True,
            check=False,
        )
        ran.append((step["id"], result.returncode, result.stdout + result.stderr))
        if result.returncode != 0:
            break
    return ran


def test_action_is_a_composite_that_uploads_sarif_with_codeql() -> None:
    spec = action()
    assert spec["runs"]["using"] == "composite"
    uses = [step["uses"].split("@")[0] for step in spec["runs"]["steps"] if "uses" in step]
    assert uses == ["actions/setup-python", "github/codeql-action/upload-sarif"]
    upload = next(s for s in spec["runs"]["steps"] if "upload-sarif" in s.get("uses", ""))
    assert upload["with"]["sarif_file"] == "${{ inputs.sarif-file }}"


def test_action_steps_annotate_findings_and_write_sarif(tmp_path: Path) -> None:
    work = copy_examples(tmp_path)
    ran = run_action(work, tmp_path)
    assert [(step, code) for step, code, _ in ran] == [("sarif", 0), ("check", 1)]
    annotations = ran[1][2]
    assert re.search(
        r"^::(error|warning) file=cnn_mnist\.py,line=\d+,col=\d+,title=TRN", annotations, re.M
    )
    log = json.loads((work / "trncodemod.sarif").read_text("utf-8"))
    assert log["version"] == "2.1.0" and log["runs"][0]["results"]
    for example in EXAMPLES:
        assert (work / example.name).read_bytes() == example.read_bytes()


def test_action_inputs_choose_paths_target_and_rules(tmp_path: Path) -> None:
    work = copy_examples(tmp_path)
    ran = run_action(
        work,
        tmp_path,
        paths="cnn_mnist.py",
        target="neuron",
        args="--select TRN001",
        **{"sarif-file": "out.sarif"},
    )
    assert ran[0][:2] == ("sarif", 0)
    results = json.loads((work / "out.sarif").read_text("utf-8"))["runs"][0]["results"]
    assert {r["ruleId"] for r in results} <= {"TRN001"}
    assert {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results} <= {
        "cnn_mnist.py"
    }


def test_action_runs_verify_only_when_asked(tmp_path: Path) -> None:
    work = copy_examples(tmp_path)
    ran = run_action(
        work, tmp_path, args="--exit-zero --select TRN801", verify="cnn_mnist.py --steps 1"
    )
    assert [step for step, _, _ in ran] == ["sarif", "check", "verify"]
    step, code, output = ran[2]
    # No torch-xla in the test's environment: verify says so and how to install it (exit 2).
    if code == 2:
        assert "pip install torch==2.9.0 torch-xla==2.9.0" in output
    assert "verify" not in [s for s, _, _ in run_action(work, tmp_path, args="--exit-zero")]
