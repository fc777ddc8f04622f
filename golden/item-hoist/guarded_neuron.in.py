# golden: target=neuron
# The same loop on TorchNeuron: no step closures, and the print is already interval-guarded.
import torch.nn.functional as F
import torch_xla.distributed.parallel_loader as pl


def train(args, model, device, train_loader, optimizer, epoch):
    model.train()
    loader = pl.MpDeviceLoader(train_loader, device)
    for batch_idx, (data, target) in enumerate(loader):
        optimizer.zero_grad()
        output = model(data)
        loss = F.nll_loss(output, target)
        loss.backward()
        optimizer.step()
        if batch_idx % args.log_interval == 0:
            # progress
            print(
                "Train Epoch: {} [{}/{}]\tLoss: {:.6f}".format(
                    epoch, batch_idx * len(data), len(train_loader.dataset), loss.item()
                )
            )
