"""What a user installing the tool gets: its licence, its version and targets, its type marker,
and install commands that work from a checkout."""

import re
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from trncodemod import __version__
from trncodemod.cli import main
from trncodemod.targets import target_names

ROOT = Path(__file__).resolve().parent.parent


def test_version_names_the_version_and_every_target() -> None:
    result = CliRunner().invoke(main, ["--version"])
    assert result.exit_code == 0
    assert result.output.splitlines()[0] == f"trncodemod {__version__}"
    for name in target_names():
        assert f"  {name}" in result.output
    assert "xla-2.9 (default)" in result.output


def test_the_package_version_is_the_one_pyproject_declares() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text("utf-8")
    assert f'version = "{__version__}"' in pyproject


def test_licence_file_is_the_apache_licence_pyproject_declares() -> None:
    assert 'license = { text = "Apache-2.0" }' in (ROOT / "pyproject.toml").read_text("utf-8")
    text = (ROOT / "LICENSE").read_text("utf-8")
    assert "Apache License" in text and "Version 2.0, January 2004" in text
    assert "END OF TERMS AND CONDITIONS" in text


def test_changelog_has_an_entry_for_this_version() -> None:
    text = (ROOT / "CHANGELOG.md").read_text("utf-8")
    assert re.search(rf"^## {re.escape(__version__)} - \d{{4}}-\d{{2}}-\d{{2}}$", text, re.M)


def test_the_type_marker_ships_with_the_package() -> None:
    assert (ROOT / "trncodemod" / "py.typed").is_file()
    assert '"py.typed"' in (ROOT / "pyproject.toml").read_text("utf-8")


def test_no_install_command_names_an_unpublished_package() -> None:
    # trncodemod is not on a package index: `pip install 'trncodemod[verify]'` fails. Extras are
    # installed from a checkout (`pip install '.[verify]'`); the index form may be given only as
    # what works "once" it is published, on that line.
    texts = [
        path
        for pattern in ("*.md", "docs/*.md", "*.yml", "*.yaml", "trncodemod/**/*.py", "tests/*.py")
        for path in ROOT.glob(pattern)
        if path.name != "test_packaging.py"
    ]
    offenders = [
        f"{path.relative_to(ROOT)}: {line.strip()}"
        for path in texts
        for line in path.read_text("utf-8").splitlines()
        if re.search(r"pip install [\"'`]?trncodemod\[", line) and "once" not in line
    ]
    assert offenders == []


def test_shell_completion_script_is_produced_for_bash() -> None:
    # click's completion: `eval "$(_TRNCODEMOD_COMPLETE=bash_source trncodemod)"` in ~/.bashrc.
    code = "from trncodemod.cli import main; main(prog_name='trncodemod')"
    result = subprocess.run(
        [sys.executable, "-c", code],
        env={"_TRNCODEMOD_COMPLETE": "bash_source", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "_trncodemod_completion()" in result.stdout
    assert "complete -o nosort -F _trncodemod_completion trncodemod" in result.stdout


def test_shell_completion_completes_command_names() -> None:
    code = "from trncodemod.cli import main; main(prog_name='trncodemod')"
    env = {
        "_TRNCODEMOD_COMPLETE": "bash_complete",
        "COMP_WORDS": "trncodemod ch",
        "COMP_CWORD": "1",
        "PATH": "/usr/bin:/bin",
    }
    result = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert "plain,check" in result.stdout.splitlines()
