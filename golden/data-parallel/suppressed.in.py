import torch
import torch.distributed as dist

dist.init_process_group("nccl")  # noqa: TRN143
for x, y in loader:
    torch.nn.functional.mse_loss(model(x), y).backward()
    optimizer.step()  # trncodemod: ignore[TRN141]
