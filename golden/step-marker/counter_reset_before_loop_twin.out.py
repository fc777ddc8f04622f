# Twin of counter_reset_before_loop: the counter the block sets right before the evaluation loop
# is a device tensor (`num_correct = torch.zeros((), device=device)`) that each example adds a
# device value to: carried from one iteration to the next, so the loop is cut before its read.
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
        num_correct = torch.zeros((), device=device)
        for tokens, label in examples:
            tokens = tokens.to(device)
            with torch.no_grad():
                scores = model(tokens)
            torch_xla.sync()
            pred = scores.argmax().item()
            num_correct += scores.max()
            print(pred == label)
        print(num_correct.item())
