# Twin of library-call-that-raises-under-torch-xla: ignite's `Engine` runs a step function of the
# program's own (measured: `Engine(step).run` runs under torch-xla 2.9), and nothing asks ignite
# for the process's rank: the step, cut at its end, trains where the program puts it.
import torch
import torch_xla
from ignite.engine import Engine
from torch import nn


def main():
    device = "xla"
    model = nn.Linear(8, 2).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    criterion = nn.CrossEntropyLoss()

    def update(engine, batch):
        x, y = batch[0].to(device), batch[1].to(device)
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        torch_xla.sync()
        return loss

    trainer = Engine(update)
    loader = [(torch.randn(4, 8), torch.randint(0, 2, (4,))) for _ in range(10)]
    trainer.run(loader, max_epochs=2)


if __name__ == "__main__":
    main()
