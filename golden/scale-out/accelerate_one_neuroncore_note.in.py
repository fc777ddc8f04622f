# golden: select=TRN16
# Class: an accelerate training script that starts no process group (no init_process_group, no
# torchrun variable): accelerate starts none for xla, so TRN162 notes that run as one process it
# trains on one NeuronCore, and how torchrun and the xla group make it data parallel.
import torch
from accelerate import Accelerator
from torch.utils.data import DataLoader, TensorDataset


def main():
    accelerator = Accelerator(gradient_accumulation_steps=2)
    data = TensorDataset(torch.randn(64, 4), torch.randn(64, 1))
    model = torch.nn.Linear(4, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = DataLoader(data, batch_size=8, shuffle=True)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for x, y in loader:
        with accelerator.accumulate(model):
            accelerator.backward(torch.nn.functional.mse_loss(model(x), y))
            optimizer.step()
            optimizer.zero_grad()


if __name__ == "__main__":
    main()
