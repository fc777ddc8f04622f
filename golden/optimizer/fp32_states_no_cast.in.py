# golden: optimizer=fp32-states
import torch

model = torch.nn.Linear(4, 4)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
half = torch.nn.Linear(4, 4).bfloat16()
amsgrad = torch.optim.AdamW(half.parameters(), amsgrad=True)
