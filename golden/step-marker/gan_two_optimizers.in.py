# dcgan names its optimizers `optimizerD` and `optimizerG`: the marker goes right after the last
# one's step, before the per-iteration print, so the print reads values the step's graph already
# computed. `options.step()` in the second loop is no optimizer: its marker ends the loop body.
import torch
import torch_xla


def train_gan(netD, netG, criterion, optimizerD, optimizerG, loader, nz):
    device = torch_xla.device()
    for i, (real, _) in enumerate(loader):
        real = real.to(device)
        netD.zero_grad()
        errD_real = criterion(netD(real), torch.ones(real.size(0), device=device))
        errD_real.backward()
        fake = netG(torch.randn(real.size(0), nz, 1, 1, device=device))
        errD_fake = criterion(netD(fake.detach()), torch.zeros(real.size(0), device=device))
        errD_fake.backward()
        optimizerD.step()
        netG.zero_grad()
        errG = criterion(netD(fake), torch.ones(real.size(0), device=device))
        errG.backward()
        optimizerG.step()
        lossD = errD_real + errD_fake
        print(f"[{i}] Loss_D: {lossD.detach()} Loss_G: {errG.detach()}")


def train_with_options(model, loader, options):
    device = torch_xla.device()
    for x, y in loader:
        loss = model(x.to(device), y.to(device))
        loss.backward()
        options.step()
        print("stepped")
