import torch
import torch_xla


class Trainer:
    def __init__(self, model, fisher=False):
        self.model = model
        self.fisher = fisher
        self.steps = 0
        self.optimizer = torch.optim.SGD(model.parameters(), lr=0.01)

    def update(self, obs, returns, epochs=2):
        for epoch in range(epochs):
            self._step(obs, returns)

    def _step(self, obs, returns):
        values = self.model(obs)
        loss = (returns - values).pow(2).mean()
        if self.fisher and self.steps % 10 == 0:
            noise = torch.randn(values.size())
            noise = noise.to(values.device)
            fisher_loss = (values - (values + noise).detach()).pow(2).mean()
            fisher_loss.backward(retain_graph=True)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        torch_xla.sync()
        self.steps += 1
