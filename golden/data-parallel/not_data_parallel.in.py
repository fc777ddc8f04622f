import torch

# One process, no process group, no sampler: the step needs no reduction.
for x, y in loader:
    loss = torch.nn.functional.mse_loss(model(x), y)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
torch.cuda.set_device(0)
