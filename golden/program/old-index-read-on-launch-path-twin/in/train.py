# Twin: the read is in a function only a flag off on every launch calls (`--greedy`,
# store_true): off the launch path, so the verdict stays "runs"; TRN065 still reports the line.
import argparse
import random

import torch

parser = argparse.ArgumentParser()
parser.add_argument("--greedy", action="store_true")
args = parser.parse_args()

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = torch.nn.Linear(4, 2).to(device)
optimizer = torch.optim.Adam(model.parameters())


def act(state):
    q_value = model(torch.tensor(state, device=device).unsqueeze(0))
    return q_value.max(1)[1].data[0]


class Env:
    def step(self, action):
        assert isinstance(action, int), action
        return [random.random() for _ in range(4)], 1.0


state = [0.0] * 4
for frame in range(10):
    action = random.randrange(2)
    if args.greedy:
        action = act(state)
    state, reward = Env().step(action)
    loss = model(torch.tensor(state, device=device)).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
