import torch
import torch_xla


class DQN(torch.nn.Module):
    def __init__(self, args):
        super().__init__()
        self.fc = torch.nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(x)


class Agent:
    def __init__(self, args):
        self.device = args.device
        self.online_net = DQN(args).to(device=args.device)
        self.optimiser = torch.optim.Adam(self.online_net.parameters(), lr=1e-3)

    def learn(self, states):
        loss = self.online_net(states.to(self.device)).pow(2).mean()
        self.optimiser.zero_grad()
        loss.backward()
        self.optimiser.step()
        torch_xla.sync()
