# A suppression comment silences the finding on its line only.
import torch


def train(model, loader, optimizer):
    for x, y in loader:
        x = x.to("xla")
        if x.shape[1] > 128:  # trncodemod: ignore[TRN432]
            x = x[:, :128]
        n = x.ne(0).sum(1).max()
        x = x[:, :n]  # noqa: TRN433
        loss = model(x, y.to("xla"))
        loss.backward()
        optimizer.step()
