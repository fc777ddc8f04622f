# Twin of exit-on-the-launch-path-before-training: the process exits with what `main()` returns,
# after it trained (`sys.exit(main())`); the check that would stop it asks for the CPU flag, off
# by default; and the exit after relaunching the program under mpirun (Spinning Up's
# `mpi_fork`) ends the parent only, whose children train: the step runs.
import argparse
import os
import subprocess
import sys

import torch
import torch_xla


def relaunch(n):
    if n <= 1:
        return
    if os.getenv("IN_MPI") is None:
        env = dict(os.environ, IN_MPI="1")
        subprocess.check_call(["mpirun", "-np", str(n), sys.executable, *sys.argv], env=env)
        sys.exit()


def main():
    relaunch(4)
    parser = argparse.ArgumentParser()
    parser.add_argument("--cpu", action="store_true")
    args = parser.parse_args()
    if args.cpu and torch.cuda.is_available():
        print("ERROR: --cpu given on a machine with a GPU")
        sys.exit(1)
    device = torch.device("cpu" if args.cpu else "xla")
    model = torch.nn.Linear(2, 2).to(device)
    optimizer = torch.optim.Adam(model.parameters())
    for step in range(10):
        x = torch.randn(4, 2).to(device)
        model(x).sum().backward()
        optimizer.step()
        torch_xla.sync()
    return 0


if __name__ == "__main__":
    sys.exit(main())
