# Class: the training step is a function of the program handed to ignite's `Engine` as its
# process function (`trainer = Engine(step)`), which `trainer.run(loader)` calls once per batch:
# no loop of the program holds it, and nothing cuts it. The cut goes in the function, after its
# last optimizer step and before what it reads on the host or returns (measured on XLA:CPU,
# ignite's DCGAN: 5 compiles a step and a growing graph without it, 7 compiles in all with it).
import torch
import torch_xla
from ignite.engine import Engine, Events


def main(netD, netG, optimizerD, optimizerG, loader, nz):
    device = torch_xla.device()
    criterion = torch.nn.BCELoss()

    def step(engine, batch):
        real, _ = batch
        real = real.to(device)
        noise = torch.randn(real.size(0), nz, 1, 1, device=device)
        fake = netG(noise)
        netD.zero_grad()
        errD = criterion(netD(real), torch.ones(real.size(0), device=device))
        errD = errD + criterion(netD(fake.detach()), torch.zeros(real.size(0), device=device))
        errD.backward()
        optimizerD.step()
        netG.zero_grad()
        errG = criterion(netD(fake), torch.ones(real.size(0), device=device))
        errG.backward()
        optimizerG.step()
        torch_xla.sync()
        return {"errD": errD.item(), "errG": errG.item()}

    trainer = Engine(step)

    @trainer.on(Events.EPOCH_COMPLETED)
    def report(engine):
        print(engine.state.epoch, engine.state.output)

    trainer.run(loader, max_epochs=5)
