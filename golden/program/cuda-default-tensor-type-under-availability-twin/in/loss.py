import torch


class BoxLoss(torch.nn.Module):
    def forward(self, predictions):
        targets = torch.full((predictions.size(0), 4), 0.5, device=predictions.device)
        return (predictions - targets).pow(2).mean()
