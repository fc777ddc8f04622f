# The running loss is read under a test that is not a logging interval: it is read every step,
# so it stays a Python number and the read is reported.
def train(model, train_data, criterion, optimizer):
    total_loss = 0.
    for batch, (data, targets) in enumerate(train_data):
        data, targets = data.to("xla"), targets.to("xla")
        optimizer.zero_grad()
        loss = criterion(model(data), targets)
        loss.backward()
        optimizer.step()

        total_loss += loss.item()

        if batch > 0:
            average = total_loss / (batch + 1)
            print(f"{batch} {average:.3f}")
