# The twin: the callback moves the batch to the device the model is on, and cuts the step.
import torch
import torch_xla
from ignite.engine import Engine
from torch.utils.data import DataLoader


def main():
    device = torch_xla.device()
    model = torch.nn.Linear(4, 2).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

    def update(engine, batch):
        optimizer.zero_grad()
        loss = model(batch.to(device)).sum()
        loss.backward()
        optimizer.step()
        torch_xla.sync()
        return loss

    trainer = Engine(update)
    trainer.run(DataLoader(torch.randn(32, 4), batch_size=4), max_epochs=1)


if __name__ == "__main__":
    main()
