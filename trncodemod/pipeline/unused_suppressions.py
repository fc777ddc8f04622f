"""TRN801: suppression comments that suppress nothing, as ruff's RUF100.

The engine checks this itself after the passes have run (only it sees every pass's use of the
suppressions, across rounds); ``SuppressionAudit`` is its entry in the rule catalogue, so that
``--select`` / ``--ignore``, ``trncodemod rules`` and ``explain`` treat TRN801 as any other rule.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from trncodemod.findings import Finding, Rule, Safety, Severity
from trncodemod.passes import Pass
from trncodemod.pipeline.suppressions import Hit, Suppressions


class UnusedSuppression(Rule):
    """## What it does
    Reports a `# trncodemod: ignore[...]`, `# trncodemod: ignore-file[...]` or `# noqa: TRN...`
    comment, or one code in it, that suppressed no finding and no rewrite in this run. A code that
    names no rule is reported too.

    A code is judged only when every rule it covers ran: a rule left out by `--select` /
    `--ignore`, or one whose pass does not apply to the target (the step marker on `neuron`), may
    still need the comment, so such codes are never reported. List `TRN801` in the comment to keep
    it anyway.

    ## Why
    A stale suppression hides the next real finding on that line: after the code it was written
    for is migrated or deleted, the comment silently switches off the rule for whatever comes
    next. ruff reports the same for `# noqa` (RUF100).

    ## Example
    ```python
    model = model.to(torch_xla.device())  # trncodemod: ignore[TRN001]
    ```

    ## Use instead
    ```python
    model = model.to(torch_xla.device())
    ```
    """

    code = "TRN801"
    name = "unused-suppression"
    summary = "suppression comment that suppresses nothing (report only)"
    fixable = False
    safety = Safety.SAFE
    severity = Severity.WARNING
    sources = ("ruff-ruf100",)


class SuppressionAudit(Pass):
    """The catalogue entry for TRN801; never run as a pass (it has no needles)."""

    name = "suppressions"
    rules = (UnusedSuppression,)
    needles = ()


def _judged(prefix: str, applicable: Collection[str], enabled: Collection[str]) -> bool:
    covered = [code for code in applicable if code.startswith(prefix)]
    return bool(covered) and all(code in enabled for code in covered)


def unused_suppressions(
    path: str,
    original: Suppressions,
    hits: Iterable[Hit],
    known: Collection[str],
    applicable: Collection[str],
    enabled: Collection[str],
) -> list[Finding]:
    """TRN801 findings for ``original``'s directives that ``hits`` never used.

    ``known``: every rule code; ``applicable``: the codes of the passes that apply to the target;
    ``enabled``: the codes this run selected. A prefix is judged when it covers applicable codes
    and all of them are enabled."""
    used = set(hits)
    findings = []
    for index, directive in enumerate(original.directives):
        if any(
            (other.whole_file or other.line == directive.line)
            and any(prefix and UnusedSuppression.code.startswith(prefix) for prefix in other.codes)
            for other in original.directives
        ):
            continue  # TRN801 named explicitly for this line or file: keep the comment as is
        unused = []
        for prefix in directive.codes:
            if (index, prefix) in used:
                continue
            if prefix and not any(code.startswith(prefix) for code in known):
                unused.append(f"{prefix} (no such rule)")
            elif _judged(prefix, applicable, enabled):
                unused.append(prefix or "every rule")
        if not unused:
            continue
        scope = "this file" if directive.whole_file else "this line"
        if len(unused) == len(directive.codes):
            action = "remove the comment"
        else:
            names = ", ".join(u.split(" ")[0] for u in unused)
            action = f"remove {names} from it"
        findings.append(
            Finding.from_rule(
                UnusedSuppression,
                path,
                directive.line,
                directive.column,
                f"`{directive.text}` suppresses nothing for {', '.join(unused)} on {scope}; "
                f"{action}",
                fixed=False,
            )
        )
    return findings
