# Twin of reads_between_steps: the critic's losses are read only at log steps (under an
# interval `if`), not every iteration: one cut after the `if` that holds the generator's
# step, as for any critic and generator loop.
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
        if i % 100 == 0:
            log["D/real"] = loss_real.item()
            log["D/fake"] = loss_fake.item()

        if (i + 1) % n_critic == 0:
            optimizer_G.zero_grad()
            loss_G = -torch.mean(critic(generator(z)))
            loss_G.backward()
            optimizer_G.step()
        torch_xla.sync()
        print(log)
