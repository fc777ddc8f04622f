# A one-step `update()` method: backward and `optimizer.step()` once, no loop of its own,
# called once per iteration of the caller's loop in another module, through an object one of
# several classes builds (issue 34: a function called once per batch is the step). PPO's
# `update` has its own step loop, which gets its own cut; A2C's gets one after its step.
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
        return loss.item()


class PPO:
    def __init__(self, model, lr, epochs=4):
        self.model = model
        self.epochs = epochs
        self.optimizer = torch.optim.Adam(model.parameters(), lr)

    def update(self, batch):
        total = 0.0
        for _ in range(self.epochs):
            loss = self.model(batch).pow(2).mean()
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            total += loss.item()
        return total / self.epochs
