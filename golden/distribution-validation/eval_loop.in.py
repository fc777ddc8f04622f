# Class: a torch.distributions object built every evaluation batch (a validation loop that
# scores each batch's likelihood).
import torch
from torch.distributions import Bernoulli

model = torch.nn.Linear(784, 784).cuda()


def evaluate(loader):
    model.eval()
    total = 0.0
    with torch.no_grad():
        for x, _ in loader:
            x = x.cuda()
            likelihood = Bernoulli(logits=model(x))
            total += likelihood.log_prob(x).sum()
    return total
