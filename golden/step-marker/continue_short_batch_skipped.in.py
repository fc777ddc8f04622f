# The author skips the partial last batch before anything runs on the device: the loop body
# clears the gradients, takes the next batch and reads its size, then `continue`s. Nothing of the
# iteration is pending, so only the step gets a cut, not the `continue`.
import torch

model = torch.nn.Linear(4, 2).to("cuda")
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)


def train(batches, batch_size, steps):
    for _ in range(steps):
        optimizer.zero_grad()
        images = next(batches)
        if images.size()[0] != batch_size:
            continue
        images = images.to("cuda")
        model(images).sum().backward()
        optimizer.step()
