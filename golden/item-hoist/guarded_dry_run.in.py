# mnist train() with `--dry-run`: a `break` after the log would leave its closure waiting for a
# sync that never comes, so the guarded print stays as it is.
import torch.nn.functional as F
import torch_xla.distributed.parallel_loader as pl


def train(args, model, device, train_loader, optimizer, epoch):
    loader = pl.MpDeviceLoader(train_loader, device)
    for batch_idx, (data, target) in enumerate(loader):
        optimizer.zero_grad()
        loss = F.nll_loss(model(data), target)
        loss.backward()
        optimizer.step()
        if batch_idx % args.log_interval == 0:
            print(f"{epoch} {batch_idx} {loss.item():.6f}")
            if args.dry_run:
                break
