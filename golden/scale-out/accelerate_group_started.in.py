# golden: select=TRN16
# Must not fire (twin of accelerate_one_neuroncore_note): the accelerate script starts the xla
# process group itself, so it is launched by torchrun and no note is given.
import torch
import torch_xla.distributed.xla_backend  # noqa: F401
from accelerate import Accelerator
from torch.utils.data import DataLoader, TensorDataset


def main():
    torch.distributed.init_process_group("xla")
    accelerator = Accelerator()
    data = TensorDataset(torch.randn(64, 4), torch.randn(64, 1))
    model = torch.nn.Linear(4, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = DataLoader(data, batch_size=8, shuffle=True)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for x, y in loader:
        accelerator.backward(torch.nn.functional.mse_loss(model(x), y))
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
