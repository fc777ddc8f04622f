import os

import torch

if __name__ == "__main__":
    os.environ["NEURON_RT_STOCHASTIC_ROUNDING_EN"] = "0"
    model = Net().to(torch.bfloat16)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
