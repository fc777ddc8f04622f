# golden: select=TRN12,TRN10
# pytorch/examples mnist test(): both sums stay on the device, one read each after the loop.
import torch
import torch.nn.functional as F
import torch_xla


def test(model, device, test_loader):
    model.eval()
    test_loss = 0
    correct = 0
    with torch.no_grad():
        for data, target in test_loader:
            data, target = data.to(device), target.to(device)
            output = model(data)
            test_loss += F.nll_loss(output, target, reduction="sum").detach()  # sum up batch loss
            pred = output.argmax(dim=1, keepdim=True)
            correct += pred.eq(target.view_as(pred)).sum()
            torch_xla.sync()
        test_loss = float(test_loss)
        correct = int(correct)

    test_loss /= len(test_loader.dataset)
    print(
        f"Test set: Average loss: {test_loss:.4f}, Accuracy: {correct}/{len(test_loader.dataset)}"
    )
