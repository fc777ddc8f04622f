# Twin of step-calls-model-forward: a library model called through `forward` with its input left
# on the CPU (`x` is never moved): the evaluator follows the call and finds the input on the CPU,
# so the entry point does not run (no "runs" where the step feeds the CPU).
import torch
import torch_xla
import torchvision


def main():
    model = torchvision.models.resnet18().to(torch_xla.device())
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    data = torch.utils.data.TensorDataset(torch.zeros(8, 3, 32, 32))
    for (x,) in torch.utils.data.DataLoader(data, batch_size=2):
        optimizer.zero_grad()
        loss = model.forward(x).sum()
        loss.backward()
        optimizer.step()
        torch_xla.sync()


if __name__ == "__main__":
    main()
