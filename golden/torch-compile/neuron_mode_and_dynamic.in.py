# golden: target=neuron
import torch

model = torch.compile(
    model,
    mode="max-autotune-no-cudagraphs",
    dynamic=True,
)
