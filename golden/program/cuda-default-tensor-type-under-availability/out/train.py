# Class: a CUDA default tensor type set only where a CUDA availability check holds (`if
# torch.cuda.is_available(): torch.set_default_tensor_type("torch.cuda.FloatTensor")`), so that
# tensors made without a device (`torch.Tensor(...)` in the loss) land on the GPU beside the
# model. On Trainium the check is False, the setter never runs and those tensors stay on the CPU,
# while the model's `.cuda()` becomes the XLA device: the first step mixes them. A blocker at the
# check, not a "runs".
import argparse

import torch
import torch_xla

from loss import BoxLoss

parser = argparse.ArgumentParser()
parser.add_argument("--cuda", default=True, type=bool)
args = parser.parse_args()

if torch.cuda.is_available():
    if args.cuda:
        torch.set_default_tensor_type("torch.cuda.FloatTensor")
else:
    torch.set_default_tensor_type("torch.FloatTensor")

net = torch.nn.Linear(4, 4)
if args.cuda:
    net = net.to(torch_xla.device())
criterion = BoxLoss()
optimizer = torch.optim.SGD(net.parameters(), lr=0.01)
device = torch_xla.device()
for step in range(10):
    images = torch.randn(8, 4)
    if args.cuda:
        images = images.to(device)
    loss = criterion(net(images))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    torch_xla.sync()
