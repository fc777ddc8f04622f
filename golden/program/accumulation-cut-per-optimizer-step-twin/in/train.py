# Twin of accumulation-cut-per-optimizer-step: the same accumulation, but the cut after the
# optimizer step is declined (`# trncodemod: ignore[TRN101]`) and the only cut left is the one
# the file makes once an epoch, around the optimizer's loop: the graph grows over every
# optimizer step of an epoch, so the entry point does not run as it should.
import torch
import torch_xla.core.xla_model as xm

device = xm.xla_device()
model = torch.nn.Linear(8, 8).to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
grad_accum_steps = 4
for epoch in range(10):
    for step in range(100):
        optimizer.zero_grad()
        for micro_step in range(grad_accum_steps):
            x = torch.randn(4, 8).to(device)
            loss = model(x).pow(2).mean() / grad_accum_steps
            loss.backward()
        optimizer.step()  # trncodemod: ignore[TRN101]
    xm.mark_step()
