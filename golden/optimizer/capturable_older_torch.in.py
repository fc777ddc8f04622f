# golden: target=xla-2.5
# `capturable=True` was measured to step on XLA with torch 2.9 only (earlier single-tensor ASGD
# raises "Capturable not supported with single tensor ASGD"): on older targets the host-reading
# optimizer is reported, not changed.
import torch

model = torch.nn.Linear(2, 2).cuda()
optimizer = torch.optim.ASGD(model.parameters(), lr=0.1)
