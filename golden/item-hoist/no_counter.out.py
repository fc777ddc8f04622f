# No loop counter to guard with: the `for` loop gets one (`enumerate`), and the print its guard.
def train(model, loader, optimizer):
    for step, (x, y) in enumerate(loader):
        optimizer.zero_grad()
        loss = model(x.to("xla"), y.to("xla"))
        loss.backward()
        optimizer.step()
        if step % 10 == 0:
            print(f"loss {loss.item():.4f}")
