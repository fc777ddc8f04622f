"""How results are shown: text, JSON, SARIF, GitHub annotations, comments in the code, and
the unified diffs `git apply` takes."""
