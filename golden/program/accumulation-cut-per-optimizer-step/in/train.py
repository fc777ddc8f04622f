# Class: gradient accumulation, the `backward()` in a micro-batch loop and the optimizer step in
# the loop around it: one cut per optimizer step, in the outer loop, is the step's cut (the
# micro-batch loop needs none), so the entry point runs.
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"
model = torch.nn.Linear(8, 8).to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
grad_accum_steps = 4
for step in range(100):
    optimizer.zero_grad()
    for micro_step in range(grad_accum_steps):
        x = torch.randn(4, 8).to(device)
        loss = model(x).pow(2).mean() / grad_accum_steps
        loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    if device == "cuda":
        torch.cuda.synchronize()
