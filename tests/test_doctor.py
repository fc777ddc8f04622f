"""`trncodemod doctor`: the verdict for a table of dependency files, one per matrix row and format."""

import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from packaging.specifiers import SpecifierSet
from packaging.version import Version

from trncodemod.cli import main
from trncodemod.commands.doctor import RULES, escape, load_matrix, meets
from trncodemod.commands.manifests import _conda_spec, _poetry_version
from trncodemod.targets import load_target, target_names

FIXTURES = Path(__file__).parent / "data" / "doctor"

# (fixture folder, target, expected "file:line CODE" in output order)
CASES = [
    # One good pin set per torch-neuronx row a target covers.
    ("row-2.1-good", "xla-2.1", []),
    ("row-2.5-good", "xla-2.5", []),
    ("row-2.6-good", "xla-2.5", []),
    ("row-2.7-good", "xla-2.5", []),
    ("row-2.8-good", "xla-2.5", []),
    ("row-2.9-good", "xla-2.9", []),
    ("row-2.13-good", "neuron", []),
    ("row-2.14-good", "neuron", []),
    # The same pins on a target they do not belong to.
    ("row-2.1-good", "xla-2.9", ["requirements.txt:2 DOC001", "requirements.txt:3 DOC002"]),
    (
        "row-2.9-good",
        "xla-2.1",
        ["requirements.txt:2 DOC001", "requirements.txt:3 DOC002", "requirements.txt:4 DOC003"],
    ),
    (
        "row-2.9-good",
        "xla-2.5",
        ["requirements.txt:2 DOC001", "requirements.txt:3 DOC002", "requirements.txt:4 DOC003"],
    ),
    (
        "row-2.8-on-xla-2.9",
        "xla-2.9",
        [
            "requirements.txt:2 DOC001",
            "requirements.txt:3 DOC002",
            "requirements.txt:4 DOC003",
        ],
    ),
    ("native-on-xla", "xla-2.9", ["requirements.txt:2 DOC001", "requirements.txt:3 DOC002"]),
    (
        "neuron-target-xla-pins",
        "neuron",
        [
            "requirements.txt:2 DOC001",
            "requirements.txt:3 DOC002",
            "requirements.txt:4 DOC008",
        ],
    ),
    ("row-2.14-good", "xla-2.9", ["requirements.txt:2 DOC001", "requirements.txt:3 DOC002"]),
    # Bad pins within a target.
    ("row-2.8-slow-torch-xla", "xla-2.5", ["requirements.txt:4 DOC003"]),
    ("placeholder", "xla-2.9", ["requirements.txt:1 DOC001", "requirements.txt:1 DOC005"]),
    ("unpinned-neuronx", "xla-2.9", ["requirements.txt:2 DOC001"]),
    ("unpinned-neuronx", "neuron", []),
    ("open-ended-neuronx", "xla-2.9", ["requirements.txt:2 DOC001"]),
    ("no-index", "xla-2.9", ["requirements.txt:1 DOC005"]),
    ("torch-outside-target", "xla-2.9", ["requirements.txt:1 DOC002"]),
    ("abi-mismatch", "xla-2.5", ["requirements.txt:2 DOC004"]),
    ("torch-xla-without-torch", "xla-2.9", ["requirements.txt:1 DOC004"]),
    ("torch-unpinned-beside-xla", "xla-2.9", ["requirements.txt:1 DOC004"]),
    ("hf-too-old", "xla-2.9", ["requirements.txt:3 DOC006", "requirements.txt:4 DOC006"]),
    ("hf-too-old", "xla-2.5", ["requirements.txt:1 DOC002", "requirements.txt:2 DOC003"]),
    ("includes", "xla-2.9", ["constraints.txt:1 DOC002"]),
    ("markers", "xla-2.9", []),
    # Each file format, good and bad.
    ("pep621-good", "xla-2.9", []),
    (
        "pep621-bad",
        "xla-2.9",
        [
            "pyproject.toml:4 DOC007",
            "pyproject.toml:7 DOC003",
            "pyproject.toml:13 DOC005",
            "pyproject.toml:15 DOC006",
            "pyproject.toml:18 DOC006",
        ],
    ),
    ("poetry-good", "xla-2.9", []),
    (
        "poetry-bad",
        "xla-2.9",
        [
            "pyproject.toml:5 DOC007",
            "pyproject.toml:7 DOC003",
            "pyproject.toml:10 DOC001",
            "pyproject.toml:10 DOC005",
        ],
    ),
    ("setup-cfg-good", "xla-2.9", []),
    ("setup-cfg-bad", "xla-2.9", ["setup.cfg:8 DOC003", "setup.cfg:12 DOC006"]),
    ("setup-py-good", "xla-2.9", []),
    ("setup-py-bad", "xla-2.9", ["setup.py:9 DOC002", "setup.py:15 DOC007", "setup.py:17 DOC006"]),
    ("conda-good", "xla-2.9", []),
    ("conda-bad", "xla-2.9", ["environment.yml:5 DOC007", "environment.yml:6 DOC002"]),
]


def doctor(folder: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["doctor", str(folder), *args])
    return result.exit_code, result.stdout, result.stderr


def verdict(stdout: str, folder: Path) -> list[str]:
    lines = []
    for line in stdout.splitlines():
        where, code = line.split(": ", 1)[0], line.split(": ", 1)[1].split()[0]
        lines.append(f"{Path(where).relative_to(folder).as_posix()} {code}")
    return lines


@pytest.fixture
def copy(tmp_path: Path):
    def make(case: str) -> Path:
        return Path(shutil.copytree(FIXTURES / case, tmp_path / case))

    return make


@pytest.mark.parametrize(
    ("case", "target", "expected"), CASES, ids=[f"{c}@{t}" for c, t, _ in CASES]
)
def test_verdict_for_each_matrix_row_and_format(copy, case, target, expected) -> None:
    folder = copy(case)
    code, out, err = doctor(folder, "--target", target)
    assert verdict(out, folder) == expected, out + err
    assert code == (1 if expected else 0), err


def test_every_target_has_rows_and_its_default_torch_is_one_of_them() -> None:
    matrix = load_matrix()
    for name in target_names():
        target = load_target(name)
        row = matrix.default_row(target)
        assert name in row.targets
        assert row.torch is not None and row.torch.contains(target.torch)


@pytest.mark.parametrize(
    ("case", "line", "write"),
    [
        ("row-2.8-slow-torch-xla", "requirements.txt:4 DOC003", "torch-xla==2.8.1"),
        ("open-ended-neuronx", "requirements.txt:2 DOC001", "torch-neuronx==2.9.*"),
        (
            "no-index",
            "requirements.txt:1 DOC005",
            "--extra-index-url https://pip.repos.neuron.amazonaws.com",
        ),
        ("torch-xla-without-torch", "requirements.txt:1 DOC004", "torch==2.9.0"),
        ("pep621-bad", "pyproject.toml:4 DOC007", 'requires-python = ">=3.10,<3.14"'),
        (
            "pep621-bad",
            "pyproject.toml:7 DOC003",
            "'torch_xla==2.9.0; platform_machine == \"x86_64\"'",
        ),
        ("poetry-bad", "pyproject.toml:7 DOC003", 'torch-xla = "2.9.0"'),
        ("poetry-bad", "pyproject.toml:10 DOC001", 'torch-neuronx = "2.9.*"'),
        ("setup-py-bad", "setup.py:9 DOC002", '"torch==2.9.0"'),
        ("conda-bad", "environment.yml:6 DOC002", "pytorch==2.9.0"),
        ("conda-bad", "environment.yml:5 DOC007", "python>=3.10,<3.14"),
        ("hf-too-old", "requirements.txt:3 DOC006", "transformers==4.53.*"),
    ],
)
def test_each_problem_says_the_line_to_write(copy, case, line, write) -> None:
    folder = copy(case)
    target = "xla-2.5" if case == "row-2.8-slow-torch-xla" else "xla-2.9"
    _, out, _ = doctor(folder, "--target", target, "--format", "json")
    problems = {
        f"{Path(p['path']).relative_to(folder).as_posix()}:{p['line']} {p['code']}": p
        for p in json.loads(out)["problems"]
    }
    assert problems[line]["write"] == write
    assert f"`{write}`" in problems[line]["message"]


def test_slow_torch_xla_message_gives_the_reason_and_source(copy) -> None:
    folder = copy("row-2.8-slow-torch-xla")
    _, out, _ = doctor(folder, "--target", "xla-2.5")
    assert "10-15 % slower, pytorch/xla#9605" in out
    assert "write `torch-xla==2.8.1`" in out


def test_neuron_target_says_to_remove_torch_xla(copy) -> None:
    folder = copy("neuron-target-xla-pins")
    _, out, _ = doctor(folder, "--target", "neuron", "--format", "json")
    (problem,) = [p for p in json.loads(out)["problems"] if p["code"] == "DOC008"]
    assert problem["write"] == "" and problem["message"].endswith("remove this line")
    assert problem["name"] == RULES["DOC008"]


def test_json_report_lists_files_problems_and_summary(copy) -> None:
    folder = copy("includes")
    code, out, _ = doctor(folder, "--format", "json")
    document = json.loads(out)
    assert code == 1
    assert document["version"] == 1 and document["target"] == "xla-2.9"
    assert [Path(f).name for f in document["files"]] == ["requirements-train.txt", "base.txt"]
    assert document["summary"] == {"files": 2, "problems": 1, "errors": 0}
    assert document["problems"][0]["source"].startswith("https://")


@pytest.mark.parametrize(
    ("case", "reason"),
    [
        ("error-missing-include", "requirements.txt:2: error: cannot read `-r missing.txt`"),
        (
            "error-bad-requirement",
            "requirements.txt:2: error: cannot parse requirement 'torch=2.9.0'",
        ),
        ("error-not-utf8", "requirements.txt: error: cannot read: 'utf-8' codec"),
    ],
)
def test_unreadable_file_exits_2_and_names_the_reason(copy, case, reason) -> None:
    folder = copy(case)
    code, _, err = doctor(folder, "--target", "xla-2.9")
    assert code == 2
    assert reason in err


def test_invalid_toml_is_named_with_the_reason(tmp_path: Path) -> None:
    # Made here, not kept as a fixture: ruff and other tools read every pyproject.toml.
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "pyproject.toml").write_text('[project\nname = "x"\n')
    (tmp_path / "requirements.txt").write_text("torch==2.4.0\n")
    code, out, err = doctor(tmp_path, "--target", "xla-2.9")
    assert code == 2
    assert "pyproject.toml: error: cannot parse TOML: Expected ']'" in err
    assert "requirements.txt:1: DOC002" in out, "the other files are still checked"


def test_tool_folders_are_not_searched(copy) -> None:
    folder = copy("skipped-folders")
    for skipped in (".venv/lib", "node_modules/pkg"):
        (folder / skipped).mkdir(parents=True)
        (folder / skipped / "requirements.txt").write_text("torch==1.0.0\n")
    code, out, _ = doctor(folder, "--format", "json")
    document = json.loads(out)
    names = [Path(f).relative_to(folder).as_posix() for f in document["files"]]
    assert names == ["requirements.txt", "sub/requirements-dev.txt"]
    assert code == 1


def test_setup_py_is_read_never_run(copy) -> None:
    folder = copy("setup-py-bad")
    doctor(folder)
    assert not (folder / "EXECUTED").exists()


def test_target_defaults_to_the_configuration(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[tool.trncodemod]\ntarget = "xla-2.1"\n')
    (tmp_path / "requirements.txt").write_bytes(
        (FIXTURES / "row-2.1-good" / "requirements.txt").read_bytes()
    )
    result = CliRunner().invoke(main, ["doctor"])
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "checked for xla-2.1" in result.stderr


def test_folder_without_dependency_files_is_clean(tmp_path: Path) -> None:
    assert doctor(tmp_path)[0] == 0


@pytest.mark.parametrize(
    ("poetry", "pep440"),
    [
        ("^2.9", ">=2.9,<3"),
        ("^0.2.3", ">=0.2.3,<0.3"),
        ("~2.9", ">=2.9,<2.10"),
        ("~2", ">=2,<3"),
        ("2.9.0", "==2.9.0"),
        ("2.9.*", "==2.9.*"),
        (">=2.0 <3.0", ">=2.0,<3.0"),
        ("*", ""),
    ],
)
def test_poetry_constraints_become_pep440(poetry, pep440) -> None:
    assert _poetry_version(poetry) == SpecifierSet(pep440)


def test_poetry_or_constraint_is_left_unchecked() -> None:
    assert _poetry_version("^3.8 || ^3.10") is None


@pytest.mark.parametrize(
    ("conda", "pep440"),
    [
        ("=2.9", "==2.9.*"),
        ("==2.9.0", "==2.9.0"),
        ("2.9.0 py3_0", "==2.9.0"),
        (">=2.0,<3", ">=2.0,<3"),
        ("", ""),
    ],
)
def test_conda_match_specs_become_pep440(conda, pep440) -> None:
    assert _conda_spec(conda) == SpecifierSet(pep440)


def test_version_sets_compare_through_packaging() -> None:
    assert meets(SpecifierSet(">=2.5,<2.8"), [SpecifierSet("==2.7.*")])
    assert not meets(SpecifierSet("<2.9"), [SpecifierSet("==2.9.0")])
    assert escape(SpecifierSet("==2.8.*"), [SpecifierSet("==2.8.1")]) == Version("2.8.0")
    assert escape(SpecifierSet("==2.8.1"), [SpecifierSet("==2.8.1")]) is None


def test_a_gpu_project_is_told_what_the_target_needs(tmp_path: Path) -> None:
    (tmp_path / "requirements.txt").write_text("torch>=2.0\ntorchvision==0.20.0\nnumpy\n")
    code, out, _ = doctor(tmp_path, "--target", "xla-2.9")
    assert code == 1
    assert verdict(out, tmp_path) == [
        "requirements.txt:1 DOC001",
        "requirements.txt:1 DOC002",
        "requirements.txt:1 DOC003",
        "requirements.txt:1 DOC005",
        "requirements.txt:2 DOC002",
    ]
    for line in (
        "add `torch-neuronx==2.9.*`",
        "write `torch==2.9.0`",
        "add `torch-xla==2.9.0`",
        "add `--extra-index-url https://pip.repos.neuron.amazonaws.com`",
        "write `torchvision==0.24.0`",
    ):
        assert line in out


def test_a_gpu_project_on_xla_2_5_gets_that_rows_companions(tmp_path: Path) -> None:
    (tmp_path / "requirements.txt").write_text("torch\ntorchaudio==2.9.0\n")
    _, out, _ = doctor(tmp_path, "--target", "xla-2.5")
    assert "add `torch-neuronx==2.5.*`" in out and "add `torch-xla==2.5.*`" in out
    assert "`torch` allows any torch release" in out and "write `torch==2.5.1`" in out
    assert "write `torchaudio==2.5.1`" in out


def test_optimum_neuron_for_another_torch_neuronx_is_pinned_to_the_targets(tmp_path: Path) -> None:
    # 0.4.x pins torch-neuronx 2.8.0; xla-2.5's torch 2.5.1 is optimum-neuron 0.2.2's.
    (tmp_path / "requirements.txt").write_text("torch-neuronx==2.5.*\noptimum-neuron>=0.2\n")
    _, out, _ = doctor(tmp_path, "--target", "xla-2.5")
    assert "requirements.txt:2 DOC009" in verdict(out, tmp_path)
    assert "write `optimum-neuron==0.2.2`" in out


def test_optimum_neuron_built_for_the_targets_torch_neuronx_passes(tmp_path: Path) -> None:
    (tmp_path / "requirements.txt").write_text("torch-neuronx==2.8.*\noptimum-neuron==0.4.5\n")
    _, out, _ = doctor(tmp_path, "--target", "xla-2.5")
    assert "DOC009" not in out


def test_optimum_neuron_has_no_release_for_torch_neuronx_2_9(tmp_path: Path) -> None:
    (tmp_path / "requirements.txt").write_text("torch-neuronx==2.9.*\noptimum-neuron==0.4.5\n")
    _, out, _ = doctor(tmp_path, "--target", "xla-2.9")
    assert "requirements.txt:2 DOC009" in verdict(out, tmp_path)
    assert "no optimum-neuron release is built for torch-neuronx 2.9" in out


@pytest.mark.parametrize(
    ("include", "why"),
    [
        ("-r /dev/zero", "cannot read: not a regular file (a character device)"),
        ("-r fifo.txt", "cannot read: not a regular file (a FIFO)"),
        ("-c big.txt", "larger than 5 MB; not read"),
    ],
)
def test_an_include_that_is_not_a_small_regular_file_is_refused_by_name(
    tmp_path: Path, include: str, why: str
) -> None:
    os.mkfifo(tmp_path / "fifo.txt")  # opening it to read would block until a writer came
    (tmp_path / "big.txt").write_bytes(b"# padding\n" * 600_000)
    (tmp_path / "requirements.txt").write_text(f"torch==2.9.0\n{include}\n")
    code, stdout, stderr = doctor(tmp_path)
    assert f"requirements.txt:2: error: cannot read `{include}`: {why}" in (stdout + stderr)


def test_a_requirements_file_that_is_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "requirements.txt")
    code, stdout, stderr = doctor(tmp_path)
    assert "requirements.txt: error: cannot read: not a regular file (a FIFO)" in stdout + stderr


def test_a_pyproject_nested_thousands_deep_is_a_clear_error(tmp_path: Path) -> None:
    deep = "[" * 100_000 + "]" * 100_000
    (tmp_path / "pyproject.toml").write_text(f'[project]\nname = "x"\ndependencies = {deep}\n')
    code, stdout, stderr = doctor(tmp_path)
    assert "cannot read: TOML nested too deeply" in stdout + stderr
    assert "Traceback" not in stdout + stderr
