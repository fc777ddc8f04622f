# Class: `.to(x)` where `x` is one of the tensors a call returns by tuple unpacking
# (`idxs, states, actions, returns = mem.sample(batch_size)`, then `offset.to(actions)`): the
# dtype and device of a tensor at hand, not a decision of the training device, so no finding that
# the training device is set outside what the tool can see (a Rainbow DQN's distributional
# projection, first sight).
# Twin: to_tensor_unpacked_from_call_twin.
import torch


class Agent:
    def __init__(self, batch_size, atoms):
        self.batch_size = batch_size
        self.atoms = atoms

    def learn(self, mem):
        idxs, states, actions, returns = mem.sample(self.batch_size)
        offset = torch.linspace(0, (self.batch_size - 1) * self.atoms, self.batch_size)
        offset = offset.unsqueeze(1).expand(self.batch_size, self.atoms).to(actions)
        return offset + returns
