# Twin of loss_scaler_call_steps: a scaler called without an optimizer (a feature scaler) steps
# nothing: the loop is an evaluation loop, whose one host read runs its graph: no cut.
import torch


def evaluate(model, data_loader, feature_scaler, device):
    model.eval()
    with torch.no_grad():
        for samples, targets in data_loader:
            samples = feature_scaler(samples.to(device))
            outputs = model(samples)
            print(outputs.argmax(-1).tolist(), targets.tolist())
