import os

import torch

os.environ["NEURON_CC_FLAGS"] = os.environ.get("NEURON_CC_FLAGS", "") + " --auto-cast=none"


def forward(model, x):
    with torch.cuda.amp.autocast():
        return model(x)
