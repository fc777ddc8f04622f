# `.item()` in a loop nested in the step: one sync per inner iteration. `.item()` in the step
# loop's own body is item-hoist's (TRN121-TRN125) and is not reported here.
import torch


def train(model, loader, optimizer, criterion):
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x.to("xla")), y.to("xla"))
        loss.backward()
        for name, p in model.named_parameters():
            if p.grad.norm().item() > 10.0:
                print("large gradient", name)
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0, error_if_nonfinite=True)
        optimizer.step()
        if loss.item() > 100.0:
            print("exploded")
