# Must not fire: a distribution built once, outside any loop, in a script with no training
# step, and only sampled in its loop.
import torch
from torch.distributions import Normal

decoder = torch.nn.Linear(16, 784).cuda()
decoder.load_state_dict(torch.load("decoder.pt"))
decoder.eval()
prior = Normal(torch.zeros(16, device="cuda"), torch.ones(16, device="cuda"))

with torch.no_grad():
    for i in range(64):
        z = prior.sample((8,))
        images = decoder(z).view(8, 28, 28)
        torch.save(images.cpu(), f"samples_{i}.pt")
