"""A script that is launched: the compiler flag autocast needs goes into its own environment."""
import torch
import torch.nn.functional as F


def main():
    model = torch.nn.Linear(16, 4).cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(10):
        x, y = torch.randn(8, 16).cuda(), torch.randint(0, 4, (8,)).cuda()
        optimizer.zero_grad()
        with torch.autocast(device_type="cuda", dtype=torch.bfloat16):
            loss = F.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
