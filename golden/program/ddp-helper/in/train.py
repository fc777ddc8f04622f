# The model is wrapped in torch DDP by a helper of another module (yolov5's smart_DDP): DDP
# reduces the gradients, so no xm.reduce_gradients before the clip (twin: ddp-helper-twin).
import torch
import torch.distributed as dist

from utils.torch_utils import smart_ddp


def main(loader):
    dist.init_process_group("nccl")
    model = smart_ddp(torch.nn.Linear(8, 8).cuda())
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        x, y = x.cuda(), y.cuda()
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main([])
