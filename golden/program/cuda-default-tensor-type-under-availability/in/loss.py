import torch


class BoxLoss(torch.nn.Module):
    def forward(self, predictions):
        targets = torch.Tensor(predictions.size(0), 4)
        targets.fill_(0.5)
        return (predictions - targets).pow(2).mean()
