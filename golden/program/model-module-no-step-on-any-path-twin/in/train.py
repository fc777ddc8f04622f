import torch

from models.dw_vit import VisionTransformer


def main():
    model = VisionTransformer().cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(3):
        x, y = torch.randn(8, 4, 16).cuda(), torch.randint(0, 2, (8,)).cuda()
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
