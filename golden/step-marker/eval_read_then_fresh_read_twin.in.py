# Twin of eval_read_then_derived_read: the value read second is computed after the first read
# from a fresh draw, not from the forward pass the first read ran: one graph a read, and a cut
# before the first read would only add an execution. No cut.
import torch


def sample(model, loader, device):
    model.eval()
    with torch.no_grad():
        for data in loader:
            img, _ = data
            img = img.to(device)
            recon = model(img)
            print(recon.mean().item())
            z = torch.randn(16, 8).to(device)
            fresh = model.decode(z)
            print(fresh.std().item())
