# Twin of loader-demo-in-unimported-script: the module that builds the loader trains nothing,
# but the training script imports its loader and steps on its batches: the last partial batch
# would compile a second graph, so the loader gets `drop_last=True`.
import torch
from torch.utils.data import DataLoader, TensorDataset

dataset = TensorDataset(torch.randn(100, 8), torch.randint(0, 2, (100,)))
train_loader = DataLoader(dataset=dataset, batch_size=32, shuffle=True, drop_last=True)
