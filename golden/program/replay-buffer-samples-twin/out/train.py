# Class: a replay buffer of a known library (stable-baselines3) hands out its samples on the
# device it was built with. Twin: built without one, its "auto" device is the CPU on the target
# (CUDA is not available), so the samples reach the model on the accelerator from the CPU.
import numpy as np
import torch
import torch.nn as nn
import torch_xla
from gymnasium import spaces
from stable_baselines3.common.buffers import ReplayBuffer

device = torch_xla.device()
obs_space = spaces.Box(low=-1.0, high=1.0, shape=(4,), dtype=np.float32)
act_space = spaces.Discrete(2)
q_network = nn.Linear(4, 2).to(device)
optimizer = torch.optim.Adam(q_network.parameters(), lr=1e-3)
rb = ReplayBuffer(10000, obs_space, act_space, handle_timeout_termination=False)
obs = np.zeros((1, 4), dtype=np.float32)
for global_step in range(1000):
    actions = np.array([act_space.sample()])
    rb.add(obs, obs, actions, np.zeros(1), np.zeros(1), [{}])
    if global_step > 100:
        data = rb.sample(32)
        q = q_network(data.observations).gather(1, data.actions).squeeze()
        loss = (q - data.rewards.flatten()).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    torch_xla.sync()
