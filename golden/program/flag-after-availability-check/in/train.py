# Class: a device flag read after an availability check (`torch.cuda.is_available() and
# args.cuda`). On the target the check is made true (TRN021) and the flag then decides; the
# program's run reads it though the check stops it there as given: `cuda` defaults to True and no
# launch line turns it off, so it is no blocker. What the run cannot follow (a model a library
# builds and a buffer it samples from) leaves the verdict "cannot tell", not "does not".
from dataclasses import dataclass

import torch
import tyro
from rl_library import ReplayBuffer, build_q_network
from utils import seed_everything


@dataclass
class Args:
    seed: int = 1
    cuda: bool = True
    batch_size: int = 32


if __name__ == "__main__":
    args = tyro.cli(Args)
    seed_everything(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() and args.cuda else "cpu")
    q_network = build_q_network().to(device)
    optimizer = torch.optim.Adam(q_network.parameters(), lr=1e-3)
    rb = ReplayBuffer(10000, device)
    for global_step in range(1000):
        data = rb.sample(args.batch_size)
        loss = (q_network(data.observations) - data.returns).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
