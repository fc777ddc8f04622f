# golden: target=neuron
import torch

compile = True
model = GPT(gptconf)
model.to(device)
if compile:
    print("compiling the model... (takes a ~minute)")
    unoptimized_model = model
    model = torch.compile(model, backend="neuron", dynamic=False)  # requires PyTorch 2.0
