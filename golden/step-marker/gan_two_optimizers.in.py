import torch


def train_gan(generator, discriminator, opt_d, opt_g, loader, device):
    for real, _ in loader:
        real = real.to(device)
        fake = generator(torch.randn(real.size(0), 64, device=device))
        opt_d.zero_grad()
        d_loss = discriminator(real).mean() - discriminator(fake.detach()).mean()
        d_loss.backward()
        opt_d.step()
        opt_g.zero_grad()
        g_loss = -discriminator(fake).mean()
        g_loss.backward()
        opt_g.step()
        print(d_loss.detach(), g_loss.detach())
