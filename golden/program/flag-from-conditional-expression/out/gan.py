# A flag set by a conditional expression from an availability check (`cuda = True if
# torch.cuda.is_available() else False`), then `if cuda: model.cuda()` and the tensor type
# chosen by it: on Trainium the flag is False, the model stays on the CPU (issue 34).
import torch
import torch_xla
from torch.utils.data import DataLoader

cuda = True if torch.cuda.is_available() else False
Tensor = torch.cuda.FloatTensor if cuda else torch.FloatTensor


class Generator(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(8, 8)

    def forward(self, x):
        return self.fc(x)


if __name__ == "__main__":
    generator = Generator()
    if cuda:
        generator.to(torch_xla.device())
    optimizer = torch.optim.Adam(generator.parameters(), lr=1e-3)
    loader = DataLoader(torch.randn(64, 8), batch_size=8)
    for imgs in loader:
        real = imgs.type(Tensor)
        optimizer.zero_grad()
        loss = generator(real).pow(2).mean()
        loss.backward()
        optimizer.step()
        torch_xla.sync()
