# Twin of cuda_mps_cpu_choice: a chain whose middle test is not a device the host lacks (a user
# flag) is not decided on the host, so it is not rewritten as a whole.
import torch


def train_model(use_gpu_fallback):
    device = "cuda" if torch.cuda.is_available() else "cuda:1" if use_gpu_fallback else "cpu"
    device = torch.device(device)
    model = torch.nn.Linear(8, 2).to(device)
    optimizer = torch.optim.Adam(model.parameters())
    for _ in range(3):
        loss = model(torch.randn(4, 8).to(device)).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
