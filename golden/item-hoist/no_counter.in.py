# No loop counter to guard with: reported; adding one is a rewrite of the loop left to a person.
def train(model, loader, optimizer):
    for x, y in loader:
        optimizer.zero_grad()
        loss = model(x.to("xla"), y.to("xla"))
        loss.backward()
        optimizer.step()
        print(f"loss {loss.item():.4f}")
