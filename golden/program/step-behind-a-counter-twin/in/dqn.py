"""A DQN whose step never runs: `learn()` is called under a constant nothing changes; no step
is reached."""
import numpy as np
import torch
import torch.nn as nn

CAPACITY = 2000
BATCH = 32
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Agent:
    def __init__(self):
        self.net = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2)).to(device)
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=0.01)
        self.memory = np.zeros((CAPACITY, 10), dtype=np.float32)
        self.memory_counter = 0
        self.learning_enabled = 0

    def store(self, transition):
        self.memory[self.memory_counter % CAPACITY] = transition
        self.memory_counter += 1

    def learn(self):
        rows = self.memory[np.random.choice(CAPACITY, BATCH)]
        states = torch.from_numpy(rows[:, :4]).to(device)
        targets = torch.from_numpy(rows[:, 4:6]).to(device)
        loss = nn.functional.mse_loss(self.net(states), targets)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()


if __name__ == "__main__":
    agent = Agent()
    for episode in range(400):
        for t in range(200):
            agent.store(np.random.rand(10).astype(np.float32))
            if agent.learning_enabled > CAPACITY:
                agent.learn()
