# golden: optimizer=fp32-states
import torch

model = torch.nn.Linear(4, 4).to("xla")
model = model.to(torch.bfloat16)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, foreach=True)
