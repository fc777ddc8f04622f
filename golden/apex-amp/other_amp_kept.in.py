import torch
from torch import amp

scaler = amp.GradScaler("cuda")
model, optimizer = initialize(model, optimizer, opt_level="O2")
with scale_loss(loss, optimizer) as scaled_loss:
    scaled_loss.backward()
