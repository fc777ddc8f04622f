# Class: an evaluation loop inside the training loop reads its forward pass on the host once an
# example (`pred = scores.argmax().item()`) and adds to counters its block sets right before it
# (`num_correct = 0`); after the loop the counters become device tensors to be reduced. Every run
# of the loop starts them on the host, so nothing is carried on the device and no cut pays: a
# cut would run the live forward pass a second time.
import torch
import torch_xla

device = "cuda"
model = torch.nn.Linear(8, 4).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
examples = [(torch.randn(1, 8), 1) for _ in range(10)]
for step in range(100):
    x = torch.randn(4, 8).to(device)
    loss = model(x).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    torch_xla.sync()
    if step % 10 == 0:
        num_correct = 0
        num_total = 0
        for tokens, label in examples:
            tokens = tokens.to(device)
            with torch.no_grad():
                scores = model(tokens)
            pred = scores.argmax().item()
            num_total += 1
            num_correct += int(pred == label)
        num_total = torch.tensor(num_total, device=device)
        num_correct = torch.tensor(num_correct, device=device)
        print((num_correct / num_total).item())
