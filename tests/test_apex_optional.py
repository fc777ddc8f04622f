"""apex imported under `try/except ImportError` is optional: its findings are warnings, since the
program runs without apex (timm's `timm/utils/cuda.py`); a plain import stays a blocker."""

from pathlib import Path

from trncodemod.config import Settings
from trncodemod.findings import Severity
from trncodemod.pipeline.migrate import migrate_text

OPTIONAL = (Path(__file__).parent.parent / "golden/apex-amp/optional_apex_warned.in.py").read_text()
PLAIN = "import torch\nfrom apex import amp\n\n\ndef save():\n    return amp.state_dict()\n"


def _apex_severities(text: str) -> set[Severity]:
    found = migrate_text(text, "scaler.py", Settings()).findings
    return {f.severity for f in found if f.code == "TRN503"}


def test_optional_apex_is_a_warning() -> None:
    assert _apex_severities(OPTIONAL) == {Severity.WARNING}


def test_a_plain_apex_import_is_a_blocker() -> None:
    assert _apex_severities(PLAIN) == {Severity.BLOCKER}
