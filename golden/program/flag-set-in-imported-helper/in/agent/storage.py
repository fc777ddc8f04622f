import torch


class RolloutStorage:
    def __init__(self, num_steps, num_inputs):
        self.obs = torch.randn(num_steps, 2, num_inputs)
        self.returns = torch.randn(num_steps, 2, 2)

    def to(self, device):
        self.obs = self.obs.to(device)
        self.returns = self.returns.to(device)
