# A value read only for a print further down, with the tensor it reads rebound in between:
# moving the read to the print would read another tensor, so it stays and is reported.
def train(model, critic, loader, optimizer):
    for step, (x, y) in enumerate(loader):
        optimizer.zero_grad()
        output = critic(model(x.to("xla")))
        output.mean().backward()
        score = output.mean().item()
        output = critic(y.to("xla"))
        optimizer.step()
        print(f"step {step} score {score:.4f}")
