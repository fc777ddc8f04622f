# Must not fire: torch.distributions in the data pipeline on the CPU (a Dataset's
# __getitem__, a collate function), and in the step with host arguments only (mixup's lambda).
import torch
from torch.distributions import Beta, Uniform
from torch.utils.data import DataLoader, Dataset


class NoisyDataset(Dataset):
    def __init__(self, data):
        self.data = data

    def __len__(self):
        return len(self.data)

    def __getitem__(self, index):
        noise = Uniform(torch.zeros(3), torch.ones(3)).sample()
        return self.data[index] + noise


def collate(items):
    weight = Beta(torch.tensor([2.0]), torch.tensor([2.0])).sample()
    return torch.stack(items) * weight


model = torch.nn.Linear(3, 3).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
loader = DataLoader(NoisyDataset(torch.randn(100, 3)), batch_size=10, collate_fn=collate)

for x in loader:
    lam = Beta(0.4, 0.4).sample()
    mix = Beta(torch.tensor([0.4]), torch.tensor([0.4]).cpu()).sample()
    x = (lam * x + (1 - lam) * x.flip(0) * mix).cuda()
    loss = model(x).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
