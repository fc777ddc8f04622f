# golden: target=neuron
"""xmp.spawn data parallel without DDP (torch_xla's own MNIST test shape): the launcher and the
gradient reduction have no rewrite the tool can be sure of, so both are blockers."""
import os

import torch
import torch_xla.core.xla_model as xm
import torch_xla.distributed.xla_multiprocessing as xmp


def _mp_fn(index, flags):
    device = torch.device("neuron")
    model = flags["model"].to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    for x, y in flags["loader"]:
        optimizer.zero_grad()
        loss = torch.nn.functional.nll_loss(model(x.to(device)), y.to(device))
        loss.backward()
        xm.optimizer_step(optimizer)
    if int(os.environ.get("RANK", "0")) == 0:
        print("finished", int(os.environ.get("RANK", "0")))


if __name__ == "__main__":
    xmp.spawn(_mp_fn, args=({},))
