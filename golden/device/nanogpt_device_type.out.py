# golden: select=TRN00,TRN021,TRN022,TRN023,TRN024,TRN026,TRN046,TRN047,TRN314
# nanoGPT's shape: device_type from the device string, the dtype from bf16 support; autocast,
# pinned memory and the GradScaler follow them. Runs as it is (random data), for the XLA lane.
from contextlib import nullcontext

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch_xla

device = "xla"
dtype = "bfloat16"
device_type = "xla" if "xla" in device else "cpu"
ptdtype = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}[dtype]
ctx = nullcontext() if device_type == "cpu" else torch.amp.autocast(device_type=device_type, dtype=ptdtype)
data = torch.randint(0, 64, (4096,))


def get_batch():
    ix = torch.randint(len(data) - 16, (8,))
    x = torch.stack([data[i : i + 16] for i in ix])
    y = torch.stack([data[i + 1 : i + 17] for i in ix])
    if device_type == "xla":
        x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
    else:
        x, y = x.to(device), y.to(device)
    return x, y


model = nn.Sequential(nn.Embedding(64, 32), nn.Linear(32, 64)).to(device)
scaler = torch.cuda.amp.GradScaler(enabled=(dtype == "float16"))
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
for it in range(20):
    X, Y = get_batch()
    with ctx:
        loss = F.cross_entropy(model(X).view(-1, 64), Y.view(-1))
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()
    optimizer.zero_grad(set_to_none=True)
    if it % 10 == 0:
        print(f"iter {it}: loss {loss.item():.4f}")
