"""The commands beyond check/apply: doctor, golden, pr, verify, and the interactive review."""
