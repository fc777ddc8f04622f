# A value read only for a print further down, with the tensor it reads rebound in between:
# moving the read to the print would read another tensor, so it stays where it is, as a tensor
# (`{score:.4f}` formats it as it formatted the number), and the print moves under the interval.
def train(model, critic, loader, optimizer):
    for step, (x, y) in enumerate(loader):
        optimizer.zero_grad()
        output = critic(model(x.to("xla")))
        output.mean().backward()
        score = output.mean().item()
        output = critic(y.to("xla"))
        optimizer.step()
        print(f"step {step} score {score:.4f}")
