# Twin of continue_short_batch_skipped: the `continue` comes after the optimizer step, and another
# after device work (a forward pass) whose result it skips: both keep a cut before them.
import torch

model = torch.nn.Linear(4, 2).to("cuda")
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)


def train(batches, batch_size, steps):
    for step in range(steps):
        optimizer.zero_grad()
        images = next(batches).to("cuda")
        out = model(images)
        if images.size()[0] != batch_size:
            continue
        out.sum().backward()
        optimizer.step()
        if step % 10:
            continue
        print(step)
