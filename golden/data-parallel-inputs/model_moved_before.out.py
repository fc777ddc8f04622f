# A DataParallel model whose module was moved before the wrap is on the device too: an input made
# on the CPU is moved at the call. The output of another DataParallel model (`g`, on the device
# whether its wrap moved it or not) needs nothing.
import torch
import torch.nn as nn
import torch_xla


def sample(g, inception, device, batches):
    for batch in batches:
        img = g(torch.randn(batch, 512, device=device))
        print(inception(img).shape, inception(torch.zeros(batch, 3, 299, 299).to(torch_xla.device())).shape)


def main(generator, net, device):
    g = generator.to(device)
    g = nn.DataParallel(g)
    inception = net.to(device)
    inception = nn.DataParallel(inception)
    sample(g, inception, device, [4, 4])
