# Class: values read on the host every iteration between two optimizer steps (a critic's losses,
# read with `.item()` after it steps and before the generator's conditional step). A cut after
# the last step leaves each read to run the critic's graph again (measured,
# benchmarks/step_shapes/train_host_read.py: 3.25 executions an iteration against 1.25); the cut
# goes after the critic's step, before the reads. Twin: reads_between_steps_twin (the reads only
# at log steps: the cut stays after the `if` that holds the generator's step).
import torch
import torch_xla


def train(generator, critic, optimizer_G, optimizer_D, loader, n_critic, latent):
    device = torch_xla.device()
    for i, (imgs, _) in enumerate(loader):
        real = imgs.to(device)
        z = torch.randn(imgs.shape[0], latent, device=device)
        loss_real = -torch.mean(critic(real))
        loss_fake = torch.mean(critic(generator(z).detach()))
        optimizer_D.zero_grad()
        (loss_real + loss_fake).backward()
        optimizer_D.step()

        log = {}
        torch_xla.sync()
        log["D/real"] = loss_real.item()
        log["D/fake"] = loss_fake.item()

        if (i + 1) % n_critic == 0:
            optimizer_G.zero_grad()
            loss_G = -torch.mean(critic(generator(z)))
            loss_G.backward()
            optimizer_G.step()
            log["G/loss"] = loss_G.item()
        print(log)
