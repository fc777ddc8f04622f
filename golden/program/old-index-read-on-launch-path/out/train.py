# Class: a step whose run reads `x.data[0]` as torch 0.3 did (a number then, a 0-dim tensor
# since torch 0.4: TRN065) and hands it on as a number (an environment's action): whether the
# program runs on the target's torch is not shown, so the verdict is "cannot tell" at the read,
# not "runs" (first-sight batch P: DQN notebooks whose `env.step(action)` rejects a tensor).
import random

import torch
import torch_xla

device = torch_xla.device()
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
    action = act(state)
    state, reward = Env().step(action)
    loss = model(torch.tensor(state, device=device)).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    torch_xla.sync()
