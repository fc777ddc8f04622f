# Class: a CUDA tensor type called with plain sizes in a script's `if __name__ == "__main__":`
# block (a model module's self-test): the block runs when the script is run, never at import,
# so the device is taken there as anywhere the script's run reaches; the call becomes
# `torch.empty(..., device=)` like the model's move beside it, which keeps the model and its
# input on one device. Twin: cuda_tensor_constructor_main_guard_twin (the same call at import).
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3)

    def forward(self, x):
        return self.conv(x)


if __name__ == "__main__":
    x = torch.cuda.FloatTensor(4, 3, 32, 32).uniform_(-1.0, 1.0)
    model = Net()
    model = model.cuda()
    print(model(x).shape)
