# Twin of step-method-called-from-loop: a one-step method called from a loop that already cuts
# the graph after the call, and one called once, outside any loop. Neither gets a cut.
import torch


class A2C:
    def __init__(self, model, lr):
        self.model = model
        self.optimizer = torch.optim.RMSprop(model.parameters(), lr)

    def update(self, batch):
        loss = self.model(batch).pow(2).mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss

    def finetune(self, batch):
        loss = self.model(batch).abs().mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()
