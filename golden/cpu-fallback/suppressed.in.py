# A suppression comment silences the finding on its line only.
import torch


class Filter(torch.nn.Module):
    def forward(self, x):
        kept = x[x > 0]  # trncodemod: ignore[TRN412]
        idx = torch.nonzero(x)  # noqa: TRN411
        return kept, idx, torch.nonzero(x)
