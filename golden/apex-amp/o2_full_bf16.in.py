import torch
from apex import amp


def train(model, optimizer, loader):
    model, optimizer = amp.initialize(model, optimizer, opt_level="O2", loss_scale="dynamic")
    for batch, target in loader:
        optimizer.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(batch), target)
        # scaled backward
        with amp.scale_loss(loss / 4, optimizer) as scaled_loss:
            scaled_loss.backward()
        optimizer.step()


if __name__ == "__main__":
    train(build_model(), build_optimizer(), build_loader())
