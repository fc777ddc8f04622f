import argparse

from solver import Solver

if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_type", type=str, default="U_Net")
    Solver(parser.parse_args()).train()
