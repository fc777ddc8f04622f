# golden: accumulation-cut=micro-batch
# The configured choice: a cut after every micro-batch, after the accumulation `if` block.
import torch


def train(model, loader, optimizer, accumulation_steps, device):
    model.train()
    for i, (inputs, labels) in enumerate(loader):
        inputs, labels = inputs.to(device), labels.to(device)
        loss = torch.nn.functional.cross_entropy(model(inputs), labels)
        (loss / accumulation_steps).backward()
        if (i + 1) % accumulation_steps == 0:
            optimizer.step()
            optimizer.zero_grad()
