"""The pipeline a run flows through: find files, read them, migrate each (one parse, the
passes to a fixed point), cache, write; nothing here prints or knows an output format."""
