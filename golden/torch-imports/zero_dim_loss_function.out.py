"""Class: a loss made by a function of the file (torch 0.3 code: a VAE's reconstruction plus KL
term), read as `loss.data[0]`. Every value the function returns is a 0-dim tensor (a loss
module's call, `torch.sum(x).mul_(-0.5)`, their sum), so the index raises IndexError since torch
0.4 and becomes `.item()`. Twin: zero_dim_row_function_twin (a function that returns a row)."""
import torch
import torch.nn as nn

reconstruction_function = nn.MSELoss(size_average=False)


def loss_function(recon_x, x, mu, logvar):
    bce = reconstruction_function(recon_x, x)
    kld_element = mu.pow(2).add_(logvar.exp()).mul_(-1).add_(1).add_(logvar)
    kld = torch.sum(kld_element).mul_(-0.5)
    return bce + kld


def kl_only(mu, logvar):
    if mu is None:
        return torch.mean(logvar)
    return torch.sum(mu.pow(2)).div(2)


def train(model, loader, optimizer):
    for img, _ in loader:
        recon, mu, logvar = model(img)
        loss = loss_function(recon, img, mu, logvar)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        kl = kl_only(mu, logvar)
        print("loss %.4f kl %.4f" % (loss.item(), kl.item()))
