# The model is wrapped in torch DDP by a helper of another module (yolov5's smart_DDP): DDP
# reduces the gradients, so no xm.reduce_gradients before the clip (twin: ddp-helper-twin).
import torch
import torch.distributed as dist
import torch_xla
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
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        torch_xla.sync()
        optimizer.zero_grad()


if __name__ == "__main__":
    main([])
