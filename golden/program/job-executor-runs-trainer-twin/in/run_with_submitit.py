import argparse

import submitit

import main as trainer


class Trainer:
    def __init__(self, args):
        self.args = args

    def __call__(self):
        trainer.main(self.args)


def parse_args():
    parser = argparse.ArgumentParser("submitit", parents=[trainer.get_args_parser()])
    parser.add_argument("--nodes", type=int, default=1)
    return parser.parse_args()


def launch():
    args = parse_args()
    executor = submitit.AutoExecutor(folder="jobs")
    executor.update_parameters(nodes=args.nodes, gpus_per_node=8)
    print("would run", Trainer(args).args)


if __name__ == "__main__":
    launch()
