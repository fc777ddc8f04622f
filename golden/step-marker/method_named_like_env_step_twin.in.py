"""An agent whose `step()` runs a rollout loop that calls the environment's `step()` and then
steps the optimizer once: the environment's call is not the agent's method, so no cut goes into
`step()` for that loop (the caller of `agent.step()` is in another module)."""
import torch
import torch.nn as nn


class A2CAgent:
    def __init__(self, task, network):
        self.task = task
        self.network = network
        self.optimizer = torch.optim.RMSprop(network.parameters(), lr=7e-4)
        self.states = task.reset()

    def step(self):
        rewards = []
        for _ in range(5):
            prediction = self.network(self.states)
            self.states, reward, done, info = self.task.step(prediction.argmax(-1))
            rewards.append(reward)
        loss = -(prediction.log_softmax(-1).mean() * sum(rewards))
        self.optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(self.network.parameters(), 0.5)
        self.optimizer.step()
