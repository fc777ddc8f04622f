# Twin of engine_process_function: the function handed to `Engine` evaluates (no optimizer step,
# its result read once per batch), and the training engine's function cuts its own step already:
# nothing is added.
import torch
import torch_xla
from ignite.engine import Engine


def main(model, optimizer, train_loader, val_loader):
    device = torch_xla.device()

    def update(engine, batch):
        x, y = batch[0].to(device), batch[1].to(device)
        optimizer.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        torch_xla.sync()
        return loss.item()

    def evaluate(engine, batch):
        with torch.no_grad():
            x, y = batch[0].to(device), batch[1].to(device)
            return (model(x).argmax(dim=1) == y).float().mean().item()

    trainer = Engine(update)
    evaluator = Engine(evaluate)
    trainer.run(train_loader, max_epochs=2)
    evaluator.run(val_loader)
