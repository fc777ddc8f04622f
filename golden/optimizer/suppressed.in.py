from apex.optimizers import FusedAdam


def build(model):
    return FusedAdam(model.parameters(), lr=1e-4)  # noqa: TRN112
