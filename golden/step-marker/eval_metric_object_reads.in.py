"""Class: an evaluation loop that hands the iteration's outputs to a method of an object the
tool does not see into (`self.metric.add(outputs, labels)`, a metric of another module whose
`add` reads `outputs.max(1)[1].cpu()`): the cut goes before that call. A cut at the end of the
body, after the method's host read, runs the forward pass again (first-sight batch P, ENet's
IoU metric: 0.43–0.62 s of execution an epoch against 1.14–1.52 s)."""
import torch


class Test:
    def __init__(self, model, data_loader, criterion, metric, device):
        self.model = model
        self.data_loader = data_loader
        self.criterion = criterion
        self.metric = metric
        self.device = device

    def run_epoch(self):
        self.model.eval()
        epoch_loss = 0.0
        self.metric.reset()
        for step, batch_data in enumerate(self.data_loader):
            inputs = batch_data[0].to(self.device)
            labels = batch_data[1].to(self.device)
            with torch.no_grad():
                outputs = self.model(inputs)
                loss = self.criterion(outputs, labels)
            epoch_loss += loss.detach()
            self.metric.add(outputs.detach(), labels.detach())
        return epoch_loss / len(self.data_loader), self.metric.value()
