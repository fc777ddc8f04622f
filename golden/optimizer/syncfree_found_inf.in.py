# golden: optimizer=syncfree
import torch


def train(model, batches, found_inf):
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    optimizer.step(found_inf=found_inf)
    return optimizer
