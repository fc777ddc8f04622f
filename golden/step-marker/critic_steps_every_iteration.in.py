# Class: conditional optimizer steps are not gradient accumulation. The critic steps every
# iteration and the generator every `n_critic` iterations (WGAN): the graph is cut once per
# iteration after the `if` that holds the generator's step, not inside it, where one graph
# would span `n_critic` critic steps. Twin: critic_steps_every_iteration_twin (accumulation).
import torch
import torch_xla


def train_wgan(generator, critic, optimizer_G, optimizer_D, loader, n_critic, clip, latent):
    device = torch_xla.device()
    for i, (imgs, _) in enumerate(loader):
        real = imgs.to(device)
        optimizer_D.zero_grad()
        z = torch.randn(imgs.shape[0], latent, device=device)
        fake = generator(z).detach()
        loss_D = -torch.mean(critic(real)) + torch.mean(critic(fake))
        loss_D.backward()
        optimizer_D.step()
        for p in critic.parameters():
            p.data.clamp_(-clip, clip)
        if i % n_critic == 0:
            optimizer_G.zero_grad()
            loss_G = -torch.mean(critic(generator(z)))
            loss_G.backward()
            optimizer_G.step()


def train_gan_generator_every_other(netD, netG, criterion, optD, optG, loader, k):
    device = torch_xla.device()
    step = 0
    for real, _ in loader:
        real = real.to(device)
        errD = criterion(netD(real), torch.ones(real.size(0), device=device))
        errD.backward()
        optD.step()
        optD.zero_grad()
        step += 1
        if step % k == 0:
            errG = criterion(netD(netG(real)), torch.ones(real.size(0), device=device))
            errG.backward()
            optG.step()
            optG.zero_grad()
        print(step)
