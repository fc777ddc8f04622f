# pytorch/examples mnist train() on a device loader (which syncs at every batch and at the end):
# the print is already every log_interval steps, it moves into a step closure.
import torch.nn.functional as F
import torch_xla.core.xla_model as xm
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
            def _log(epoch, batch_idx, data, train_loader, loss):
                print(
                    "Train Epoch: {} [{}/{}]\tLoss: {:.6f}".format(
                        epoch, batch_idx * len(data), len(train_loader.dataset), loss.item()
                    )
                )
            xm.add_step_closure(_log, args=(epoch, batch_idx, data, train_loader, loss))
