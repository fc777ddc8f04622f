import torch
import torch_xla.core.xla_model as xm
import neuronx_distributed as nxd
from torch.utils.data.distributed import DistributedSampler


def train():
    torch.distributed.init_process_group("xla")
    sampler = DistributedSampler(dataset)
    model = nxd.initialize_parallel_model(nxd_config, get_model)
    optimizer = nxd.initialize_parallel_optimizer(nxd_config, torch.optim.AdamW, params, lr=3e-4)
    for batch in loader:
        loss = model(**batch).loss
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        xm.mark_step()


if __name__ == "__main__":
    train()
