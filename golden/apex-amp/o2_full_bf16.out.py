import torch


def train(model, optimizer, loader):
    model.to(torch.bfloat16)
    for batch, target in loader:
        optimizer.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(batch), target)
        # scaled backward
        (loss / 4).backward()
        optimizer.step()


if __name__ == "__main__":
    train(build_model(), build_optimizer(), build_loader())
