# Twin of opt_out_cuda_choice: the same spelling where it is not a device (a label printed, a
# backend name), and a choice whose flag is not an opt-out of CUDA (`"cpu" if small else
# "cuda"` read as a device but decided by a value the tool cannot see) is reported, not silent.
import torch

backend = "cpu" if torch.backends.mkldnn.is_available() else "cuda"
print("backend:", backend)


def train(small):
    device = torch.device("cpu" if small else "cuda")
    model = torch.nn.Linear(8, 2).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(3):
        loss = model(torch.randn(4, 8, device=device)).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
