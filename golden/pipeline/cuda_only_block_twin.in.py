# Twin of cuda_only_block: where the check decides the training device the device pass makes it
# true, so what it guards runs on Trainium and is rewritten; CUDA calls outside any CUDA-only
# block are removed; a bf16 check that chooses the training dtype is made true, and so is one
# whose block does more than print.
import torch


def train(model, loader, optimizer, seed, args):
    torch.manual_seed(seed)
    torch.cuda.manual_seed_all(seed)
    if torch.cuda.is_available():
        device = torch.device("cuda")
    else:
        device = torch.device("cpu")
    dtype = torch.bfloat16 if torch.cuda.is_bf16_supported() else torch.float16
    if torch.cuda.is_bf16_supported():
        print("training in bfloat16")
        args.bf16 = True
    model.to(device)
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        loss = torch.nn.functional.mse_loss(model(x.to(dtype)), y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
    torch.cuda.empty_cache()
