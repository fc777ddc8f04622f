import torch
from torch.cuda.amp import autocast


def run(model, x, amp_dtype, device, **amp_kwargs):
    with torch.autocast("cuda", dtype=amp_dtype):
        a = model(x)
    with torch.autocast(device.type, dtype=torch.float16):
        b = model(x)
    with autocast(**amp_kwargs):
        c = model(x)
    context = autocast if amp_dtype else None
    scaler = torch.cuda.amp.GradScaler()
    scaler.scale(a.sum()).backward()
    return a, b, c, context, scaler
