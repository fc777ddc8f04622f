# Twin of ddp-helper: the helper of another module does not wrap the model in DDP, so the
# gradients of each worker are reduced before the clip.
import torch
import torch.distributed as dist
import torch_xla
import torch_xla.core.xla_model as xm
import torch_xla.distributed.xla_backend

from utils.torch_utils import smart_ddp


def main(loader):
    dist.init_process_group("xla", init_method="xla://")
    model = smart_ddp(torch.nn.Linear(8, 8).to(torch_xla.device()))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    device = torch_xla.device()
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        xm.reduce_gradients(optimizer)
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        torch_xla.sync()
        optimizer.zero_grad()


if __name__ == "__main__":
    main([])
