"""A denoising model trained at the first steps of a float64 noise schedule: 1 - alphas_cumprod
is about t * 1e-6 there, which float32 cannot hold (fault injection: recast the schedule)."""

import torch
import torch.nn as nn

STEPS = 1000


def schedule():
    betas = torch.linspace(1e-6, 2e-6, STEPS, dtype=torch.float64)
    alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)
    return (1.0 - alphas_cumprod).sqrt()


def main():
    torch.manual_seed(0)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    noise_scale = schedule()
    model = nn.Sequential(nn.Linear(8, 16), nn.Tanh(), nn.Linear(16, 8)).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    for step in range(4):
        clean = torch.randn(16, 8, device=device)
        noise = torch.randn(16, 8, device=device)
        t = torch.randint(0, 4, (16, 1))
        sigma = (noise_scale[t] * 1000.0).float().to(device)
        noisy = clean + sigma * noise
        loss = ((model(noisy) - sigma * noise) ** 2).mean() * 1e6
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, loss.item())


if __name__ == "__main__":
    main()
