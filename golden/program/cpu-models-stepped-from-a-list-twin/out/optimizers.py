"""Four copies of a small net, each trained by another optimizer, to compare their losses."""
import matplotlib.pyplot as plt
import torch
import torch.nn.functional as F
import torch.utils.data as Data
import torch_xla

LR = 0.01
DEVICE = torch.device("xla")
EPOCH = 12

torch.manual_seed(1)
torch_xla.manual_seed(1)
x = torch.unsqueeze(torch.linspace(-1, 1, 1000), dim=1)
y = x.pow(2) + 0.1 * torch.normal(torch.zeros(*x.size()))
loader = Data.DataLoader(Data.TensorDataset(x, y), batch_size=32, shuffle=True)


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = torch.nn.Linear(1, 20)
        self.predict = torch.nn.Linear(20, 1)

    def forward(self, x):
        return self.predict(F.relu(self.hidden(x)))


if __name__ == "__main__":
    nets = [Net().to(DEVICE) for _ in range(4)]
    optimizers = [
        torch.optim.SGD(nets[0].parameters(), lr=LR),
        torch.optim.SGD(nets[1].parameters(), lr=LR, momentum=0.8),
        torch.optim.RMSprop(nets[2].parameters(), lr=LR, alpha=0.9),
        torch.optim.Adam(nets[3].parameters(), lr=LR, betas=(0.9, 0.99)),
    ]
    loss_func = torch.nn.MSELoss()
    losses = [[], [], [], []]
    for epoch in range(EPOCH):
        for step, (b_x, b_y) in enumerate(loader):
            for net, opt, history in zip(nets, optimizers, losses):
                output = net(b_x.to(DEVICE))
                loss = loss_func(output, b_y.to(DEVICE))
                opt.zero_grad()
                loss.backward()
                opt.step()
                torch_xla.sync()
                history.append(loss.item())
    for history in losses:
        plt.plot(history)
    plt.xlabel("Steps")
    plt.ylabel("Loss")
    plt.show()
