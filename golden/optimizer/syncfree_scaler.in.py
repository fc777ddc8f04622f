# golden: optimizer=syncfree
import torch

model = torch.nn.Linear(4, 4)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
scaler = torch.amp.GradScaler("cuda")
for x in range(3):
    loss = model(torch.ones(4)).sum()
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()
