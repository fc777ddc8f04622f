import torch
import torch.distributed as dist

dist.init_process_group("nccl", init_method="env://")
for x, y in loader:
    loss = torch.nn.functional.mse_loss(model(x), y)
    loss.backward()
    if clip:
        accelerator.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
