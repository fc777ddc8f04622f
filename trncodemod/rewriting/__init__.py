"""What passes build rewrites with: call arguments, statements removed, step closures, the
imports a rewrite needs and where they go."""
