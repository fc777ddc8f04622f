# Twin of cuda-default-tensor-type-under-availability: the CUDA default tensor type is set under
# a check of the script's own flag, not of CUDA's availability (`if args.cuda:`), with the flag
# off by default; the model and the batches move with `.to(device)`, and the loss makes its
# tensors on its input's device. Nothing is left on the CPU: no blocker, and it runs.
import argparse

import torch

from loss import BoxLoss

parser = argparse.ArgumentParser()
parser.add_argument("--cuda", action="store_true")
args = parser.parse_args()

if args.cuda:
    torch.set_default_tensor_type("torch.cuda.FloatTensor")

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
net = torch.nn.Linear(4, 4).to(device)
criterion = BoxLoss()
optimizer = torch.optim.SGD(net.parameters(), lr=0.01)
for step in range(10):
    images = torch.randn(8, 4).to(device)
    loss = criterion(net(images))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
