import torch
import torch_xla

from labels import AttnConverter, CTCConverter


def validation(model, converter, loader, device):
    correct = 0
    model.eval()
    with torch.no_grad():
        for images, texts in loader:
            preds = model(images.to(device))
            sizes = torch.IntTensor([preds.size(1)] * preds.size(0))
            _, preds_index = preds.max(2)
            decoded = converter.decode(preds_index, sizes)
            correct += sum(p == t for p, t in zip(decoded, texts))
            torch_xla.sync()
    return correct


def main(attention=False):
    device = torch_xla.device()
    converter = AttnConverter("abc") if attention else CTCConverter("abc")
    model = torch.nn.Sequential(torch.nn.Flatten(2), torch.nn.Linear(32, 4)).to(device)
    model.load_state_dict(torch.load("ocr.pt", map_location="cpu"))
    print(validation(model, converter, [], device))


if __name__ == "__main__":
    main()
