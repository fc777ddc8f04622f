from apex.optimizers import FusedSGD


def build(model):
    return FusedSGD(model.parameters(), 0.1, momentum=0.9, weight_decay=5e-4, set_grad_none=True)
