"""Saves one after another: one graph cut before the first serves them all."""
import copy
import torch
import torch.nn as nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Agent:
    def __init__(self):
        self.actor = nn.Linear(4, 2).to(device)
        self.actor_optimizer = torch.optim.Adam(self.actor.parameters())
        self.critic = nn.Linear(6, 1).to(device)
        self.critic_optimizer = torch.optim.Adam(self.critic.parameters())

    def save(self, filename):
        torch.save(self.critic.state_dict(), filename + "_critic")
        torch.save(self.critic_optimizer.state_dict(), filename + "_critic_optimizer")

        torch.save(self.actor.state_dict(), filename + "_actor")
        torch.save(self.actor_optimizer.state_dict(), filename + "_actor_optimizer")
