import os

import torch
import torch_xla


def test_training_matches_the_cpu_reference():
    device = torch.device(os.environ.get("TEST_DEVICE", "cpu"))
    model = torch.nn.Linear(4, 4).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(3):
        loss = model(torch.randn(2, 4).to(device)).sum()
        loss.backward()
        optimizer.step()
        torch_xla.sync()
