# golden: scale-out=true select=TRN16,TRN141
# Class: an unseeded script whose model is built and moved in one chain
# (`model = Net.from_pretrained(...).to(device)`), not by a statement on its name: the master's
# weights are broadcast once the chain has put the model on the device.
import os

import torch
import torch.distributed
import torch_xla
import torch_xla.core.xla_model as xm
import torch_xla.distributed.xla_backend
import torch_xla.runtime as xr
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset


class Net(torch.nn.Linear):
    @classmethod
    def from_pretrained(cls, name):
        return cls(4, 1)


def main():
    device = torch_xla.device()
    data = TensorDataset(torch.randn(64, 4), torch.randn(64, 1))
    sampler = DistributedSampler(
        data,
        num_replicas=xr.world_size(),
        rank=xr.global_ordinal(),
        shuffle=True,
    )
    loader = DataLoader(data, batch_size=8, sampler=sampler)
    model = Net.from_pretrained("net").to(device)
    xm.broadcast_master_param(model)  # no seed: every replica starts from the master's weights
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        optimizer.zero_grad()
        torch.nn.functional.mse_loss(model(x.to(device)), y.to(device)).backward()
        xm.optimizer_step(optimizer)


# Launch one process per NeuronCore: torchrun --nproc_per_node=32 model_chain_broadcast.in.py (trn1.32xlarge; 2 on trn1.2xlarge, 64 on trn2.48xlarge)
if __name__ == "__main__":
    if "WORLD_SIZE" in os.environ:  # started by torchrun; one process needs no group
        torch.distributed.init_process_group("xla", init_method="xla://")
    main()
