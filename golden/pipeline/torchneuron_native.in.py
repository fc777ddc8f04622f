# golden: target=neuron
"""A script already written for TorchNeuron (the shape of its distributed tutorial): every pass on
the neuron target must leave it as it is."""
import os

import torch
import torch.distributed as dist

CONFIG = {"accelerator": "xla", "name": "xla"}


def main(model, loader):
    dist.init_process_group(backend="neuron", init_method="env://")
    device = torch.device("neuron")
    model = torch.nn.parallel.DistributedDataParallel(model.to(device))
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        with torch.autocast(device_type="neuron", dtype=torch.bfloat16):
            loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
    if int(os.environ.get("RANK", "0")) == 0:
        torch.save(model.state_dict(), "model.pt")
    torch.accelerator.synchronize()


if __name__ == "__main__":
    main(None, [])
