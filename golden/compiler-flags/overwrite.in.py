import os

import torch

os.environ["NEURON_CC_FLAGS"] = "--retry_failed_compilation"
os.environ["NEURON_CC_FLAGS"] = os.environ.get("NEURON_CC_FLAGS", "") + " -O1"
model = torch.nn.Transformer()


if __name__ == "__main__":
    model.train()
