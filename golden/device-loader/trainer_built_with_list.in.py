import torch
import torch_xla
from torch.utils.data import DataLoader, TensorDataset


class Trainer:
    def __init__(self, model, train_data, optimizer, device):
        self.model = model
        self.train_data = train_data
        self.optimizer = optimizer
        self.device = device

    def run_epoch(self):
        for source, targets in self.train_data:
            source = source.to(self.device)
            targets = targets.to(self.device)
            self.optimizer.zero_grad()
            torch.nn.functional.mse_loss(self.model(source), targets).backward()
            self.optimizer.step()


def prepare_dataloader(dataset, batch_size):
    return DataLoader(dataset, batch_size=batch_size, drop_last=True)


def main(train):
    # `train` here is a parameter, not the module's function of that name.
    device = torch_xla.device()
    model = torch.nn.Linear(4, 1).to(device)
    data = prepare_dataloader(TensorDataset(torch.randn(64, 4), torch.randn(64, 1)), 8)
    trainer = Trainer(model, data, torch.optim.SGD(model.parameters(), lr=0.1), device)
    # A second trainer on a plain list of batches: the loader is not certain.
    Trainer(model, [(torch.randn(8, 4), torch.randn(8, 1))], trainer.optimizer, device)
    for _ in range(train):
        trainer.run_epoch()
