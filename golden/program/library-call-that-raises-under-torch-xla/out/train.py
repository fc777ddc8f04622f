# Class: a library call that raises wherever torch_xla imports (pytorch-ignite's rank and
# world-size queries: `idist.*`, `setup_logger`, `ModelCheckpoint`, which ask torch_xla for
# names torch-xla 2.9 removed; measured, benchmarks/xla_facts.py `ignite_rank_queries`): the
# program stops there, whatever its step does. "does not", at the call.
import torch
import torch_xla
from ignite.engine import Events, create_supervised_trainer
from ignite.utils import setup_logger
from torch import nn


def main():
    device = "xla"
    model = nn.Linear(8, 2).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    trainer = create_supervised_trainer(model, optimizer, nn.CrossEntropyLoss(), device=device)
    trainer.logger = setup_logger("trainer")
    loader = [(torch.randn(4, 8), torch.randint(0, 2, (4,))) for _ in range(10)]

    @trainer.on(Events.EPOCH_COMPLETED)
    def report(engine):
        print(engine.state.epoch)

    trainer.run(loader, max_epochs=2)


if __name__ == "__main__":
    main()
