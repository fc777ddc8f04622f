import torch

if __name__ == "__main__":
    batch = batch.to(torch.bfloat16)
    model = Net()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
