"""What the passes do with the program's answers that golden files do not show: severities."""

from __future__ import annotations

from pathlib import Path

from trncodemod.analysis.program import ModuleView
from trncodemod.config import Settings
from trncodemod.findings import Severity
from trncodemod.pipeline.migrate import migrate_text

GOLDEN = Path(__file__).resolve().parent.parent / "golden"


def test_torch_compile_behind_an_opt_in_flag_is_no_blocker():
    text = (GOLDEN / "torch-compile" / "opt_in_flag_backend.in.py").read_text()
    (finding,) = [f for f in migrate_text(text, "t.py", Settings()).findings if f.code == "TRN154"]
    assert finding.severity is Severity.WARNING


def test_the_same_compile_run_by_default_is_a_blocker():
    text = (GOLDEN / "torch-compile" / "backend_variable_reported.in.py").read_text()
    found = [f for f in migrate_text(text, "t.py", Settings()).findings if f.code == "TRN154"]
    assert found and all(f.severity is Severity.BLOCKER for f in found)


def test_a_blocker_in_a_test_module_is_a_warning():
    text = (GOLDEN / "torch-compile" / "backend_variable_reported.in.py").read_text()
    findings = migrate_text(text, "tests/test_t.py", Settings(), ModuleView("test")).findings
    found = [f for f in findings if f.code == "TRN154"]
    assert found and all(f.severity is Severity.WARNING for f in found)
    assert "not a training program" in found[0].message


PUBLISHED = ModuleView("library", published="`mylib` (published by pyproject.toml)")
LIBRARY_CODE = "import torch\n\n\ndef start(x):\n    return x.cuda().double()\n"


def test_a_published_package_module_reports_what_only_tunes_the_port():
    migration = migrate_text(LIBRARY_CODE, "mylib/core.py", Settings(), PUBLISHED)
    # The move the training needs is made; the float64 cast, a matter of precision, is not.
    assert "torch_xla.device()" in migration.text and ".double()" in migration.text
    reported = [f for f in migration.findings if f.code == "TRN202"]
    assert reported and not any(f.fixed for f in reported)
    assert "port-published = true" in reported[0].message


def test_port_published_ports_it_all():
    settings = Settings(port_published=True)
    migration = migrate_text(LIBRARY_CODE, "mylib/core.py", settings, PUBLISHED)
    assert "torch_xla.device()" in migration.text and ".double()" not in migration.text
