import torch
import torch_xla


class Trainer:
    def __init__(self, model, use_gpu=False):
        self.model = model
        self.use_gpu = use_gpu
        self.steps = 0
        self.optimizer = torch.optim.SGD(model.parameters(), lr=0.01)

    def update(self, obs, returns, epochs=2):
        for epoch in range(epochs):
            self._step(obs, returns)

    def _step(self, obs, returns):
        if self.use_gpu and self.steps >= 0:
            obs = obs.to(torch_xla.device())
            returns = returns.to(torch_xla.device())
        values = self.model(obs)
        loss = (returns - values).pow(2).mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        torch_xla.sync()
        self.steps += 1
