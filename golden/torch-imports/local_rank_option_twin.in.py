# Twin of local_rank_option: parsers that already take `--local-rank` (alone, or beside
# `--local_rank`), an option that only looks like it (`--local_ranks`), and a rank read from
# the environment (torchrun's way): nothing changes.
import argparse
import os

parser = argparse.ArgumentParser()
parser.add_argument("--local-rank", "--local_rank", type=int, default=0)
parser.add_argument("--local_ranks", type=int, nargs="+")
other = argparse.ArgumentParser()
other.add_argument("--local-rank", type=int, default=int(os.environ.get("LOCAL_RANK", 0)))
