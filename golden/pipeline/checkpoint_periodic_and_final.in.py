# golden: select=TRN00,TRN32,TRN101
import torch
import torch.nn.functional as F


def main(model, train_loader, epochs, log_dir):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = model.to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for epoch in range(epochs):
        for step, (data, target) in enumerate(train_loader):
            data, target = data.to(device), target.to(device)
            optimizer.zero_grad()
            loss = F.cross_entropy(model(data), target)
            loss.backward()
            optimizer.step()
            if step % 500 == 0:
                # periodic checkpoint
                torch.save(
                    {"model": model.state_dict(), "optimizer": optimizer.state_dict()},
                    f"{log_dir}/step_{step}.pt",
                )
    torch.save(model.state_dict(), f"{log_dir}/final.pt")
