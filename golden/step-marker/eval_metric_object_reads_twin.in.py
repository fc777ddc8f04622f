"""Twin: the loop keeps its outputs in a list and updates them in place with their own method
(`outputs.clamp_(0, 1)`): nothing is handed to code that may read it, so the cut stays at the
end of the body."""
import torch


class Test:
    def __init__(self, model, data_loader, device):
        self.model = model
        self.data_loader = data_loader
        self.device = device

    def run_epoch(self):
        self.model.eval()
        kept = []
        for step, batch_data in enumerate(self.data_loader):
            inputs = batch_data[0].to(self.device)
            with torch.no_grad():
                outputs = self.model(inputs)
            outputs.clamp_(0, 1)
            kept.append(outputs.detach())
        return torch.cat(kept)
