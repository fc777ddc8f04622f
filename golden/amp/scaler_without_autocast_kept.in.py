# Must not fire (TRN306's rewrite, twin of scaler_enabled_flag.in.py): a scaler made only when
# the model itself computes in float16 (no autocast in the file to make bf16): disabling it would
# let float16 gradients underflow, so it is reported and left as it is.
import os

import torch

COMPUTE_DTYPE = torch.float16 if os.environ.get("DTYPE") == "float16" else torch.float32


def train(model, loader, optimizer, path):
    model = model.to(COMPUTE_DTYPE)
    scaler = torch.amp.GradScaler() if COMPUTE_DTYPE == torch.float16 else None
    for x, y in loader:
        loss = model(x.to(COMPUTE_DTYPE), y)
        if scaler is not None:
            scaler.scale(loss).backward()
            scaler.step(optimizer)
            scaler.update()
        else:
            loss.backward()
            optimizer.step()
    torch.save({"model": model.state_dict(), "scaler": scaler.state_dict() if scaler else None}, path)
