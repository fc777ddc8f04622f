"""Train a model in full bf16."""
import torch

from mymodels import build_model

model = build_model().to(torch.bfloat16)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)

if __name__ == "__main__":
    for x, y in loader:
        loss = torch.nn.functional.mse_loss(model(x.to(torch.bfloat16)).float(), y)
        loss.backward()
        optimizer.step()
