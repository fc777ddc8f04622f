# Class: a script that trains nothing (no backward, no optimizer step) and that no other module
# of the program imports: its loader only feeds a loop that prints batches on the CPU, so no
# compiled step sees a last partial batch: no `drop_last` (the demo keeps showing it).
import torch
from torch.utils.data import DataLoader, TensorDataset

dataset = TensorDataset(torch.randn(100, 8), torch.randint(0, 2, (100,)))
train_loader = DataLoader(dataset=dataset, batch_size=32, shuffle=True)

for epoch in range(2):
    for i, (inputs, labels) in enumerate(train_loader):
        print(f"Epoch {epoch} batch {i}: {inputs.shape} {labels.shape}")
