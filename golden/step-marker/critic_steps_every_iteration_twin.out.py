# Twin of critic_steps_every_iteration: gradient accumulation. One optimizer, backward on every
# iteration, the step only under the interval `if`: that is accumulation, and the cut stays
# inside the `if`, once per optimizer step.
import torch
import torch_xla


def train(model, loader, optimizer, n, clip):
    device = torch_xla.device()
    for i, (x, y) in enumerate(loader):
        loss = torch.nn.functional.mse_loss(model(x.to(device)), y.to(device)) / n
        loss.backward()
        for p in model.parameters():
            p.data.clamp_(-clip, clip)
        if i % n == 0:
            optimizer.step()
            torch_xla.sync()
            optimizer.zero_grad()
