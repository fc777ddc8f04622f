import torch

from trainer import Trainer

if __name__ == "__main__":
    config = Trainer.get_default_config()
    model = torch.nn.Linear(4, 1)
    trainer = Trainer(config, model)
    trainer.run([], torch.optim.SGD(model.parameters(), lr=config.learning_rate))
