"""trncodemod: rewrite PyTorch GPU/CPU training code for AWS Trainium, as a reviewable patch.

The pipeline, one module a step: ``files`` (discovery) → ``source`` (bytes, encoding, newlines)
→ ``engine`` (parse once, run the passes in ``transforms``, re-parse) → ``patch`` (unified diff)
→ ``writing`` (atomic replace) or ``report`` (findings). The CLI in ``cli`` drives it.
"""

from trncodemod.findings import Finding, Rule, Safety, Severity
from trncodemod.targets import Target, load_target

__version__ = "0.1.0"

__all__ = ["Finding", "Rule", "Safety", "Severity", "Target", "load_target", "__version__"]
