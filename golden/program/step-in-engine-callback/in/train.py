# The step handed to a training engine as a callback (ignite's `Engine(update)`), not written
# as a loop: the evaluator runs it once per batch, as `trainer.run` does (issue 34).
import torch
from ignite.engine import Engine
from torch.utils.data import DataLoader


def main():
    model = torch.nn.Linear(4, 2)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

    def update(engine, batch):
        optimizer.zero_grad()
        loss = model(batch).sum()
        loss.backward()
        optimizer.step()
        return loss.item()

    trainer = Engine(update)
    trainer.run(DataLoader(torch.randn(32, 4), batch_size=4), max_epochs=1)


if __name__ == "__main__":
    main()
