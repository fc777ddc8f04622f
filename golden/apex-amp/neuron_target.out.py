# golden: target=neuron
import torch

model.to(torch.bfloat16)
loss.backward(retain_graph=True)
