# Twin of cuda_only_block: where the check decides the training device the device pass makes it
# true, so what it guards runs on Trainium and is rewritten; CUDA calls outside any CUDA-only
# block are removed; a bf16 check that chooses the training dtype is made true, and so is one
# whose block does more than print.
import torch
import torch_xla


def train(model, loader, optimizer, seed, args):
    torch.manual_seed(seed)
    torch_xla.manual_seed(seed)
    device = torch_xla.device()
    dtype = torch.bfloat16
    print("training in bfloat16")
    args.bf16 = True
    model.to(device)
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        loss = torch.nn.functional.mse_loss(model(x.to(dtype)), y)
        loss.backward()
        optimizer.step()
        torch_xla.sync()
        optimizer.zero_grad()
