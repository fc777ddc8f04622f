import torch

from settings import load_device


class CN:
    pass


class Trainer:
    @staticmethod
    def get_default_config():
        C = CN()
        C.device = load_device()
        C.learning_rate = 3e-4
        return C

    def __init__(self, config, model):
        self.config = config
        if config.device == "auto":
            self.device = "cuda" if torch.cuda.is_available() else "cpu"
        else:
            self.device = config.device
        self.model = model.to(self.device)

    def run(self, loader, optimizer):
        for x, y in loader:
            x, y = x.to(self.device), y.to(self.device)
            loss = torch.nn.functional.mse_loss(self.model(x), y)
            loss.backward()
            optimizer.step()
