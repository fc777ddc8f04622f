# A `while` loop without a counter: reported; adding a counter to it is left to a person.
def train(model, batches, optimizer):
    while batches:
        x, y = batches.pop()
        optimizer.zero_grad()
        loss = model(x.to("xla"), y.to("xla"))
        loss.backward()
        optimizer.step()
        print(f"loss {loss.item():.4f}")
