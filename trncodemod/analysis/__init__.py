"""Facts about the program, worked out once per file and asked by every pass.

A pass that guesses such a fact from the few lines in front of it will one day rewrite the wrong
program: what kind of training a file does (``training``) and which device it trains on
(``device``) are analyses of their own, with their own tests, shared by the passes.
"""
