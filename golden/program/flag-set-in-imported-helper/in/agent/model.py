import torch.nn as nn


class CNNBase(nn.Module):
    def __init__(self, num_inputs, num_outputs):
        super().__init__()
        self.body = nn.Sequential(nn.Conv1d(num_inputs, 16, 1), nn.Flatten(), nn.LazyLinear(num_outputs))

    def forward(self, inputs):
        return self.body(inputs)


class MLPBase(nn.Module):
    def __init__(self, num_inputs, num_outputs):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(num_inputs, 16), nn.Tanh(), nn.Linear(16, num_outputs))

    def forward(self, inputs):
        return self.body(inputs)


class Policy(nn.Module):
    # The base is chosen by the observations' shape, which the tool cannot know: `.to(device)`
    # on the policy moves it whichever it is.
    def __init__(self, obs_shape, num_outputs):
        super().__init__()
        if len(obs_shape) == 3:
            base = CNNBase
        elif len(obs_shape) == 1:
            base = MLPBase
        else:
            raise NotImplementedError
        self.base = base(obs_shape[0], num_outputs)

    def forward(self, inputs):
        return self.base(inputs)

    def evaluate(self, inputs):
        return self.base(inputs)
