# Twin of optimizer_before_move: the move already first, a statement between that reads the model
# (its state loaded into the optimizer's model before the move), an optimizer over two models, a
# move that reads a device bound between (`device = torch.device("cuda")`), and
# a move of another model are left as they are.
import torch


def moved_first(device):
    model = torch.nn.Linear(4, 2).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    return model, optimizer


def reads_between(device, state):
    model = torch.nn.Linear(4, 2)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    model.load_state_dict(state)
    model.to(device)
    return model, optimizer


def two_models(device):
    encoder, decoder = torch.nn.Linear(4, 4), torch.nn.Linear(4, 2)
    optimizer = torch.optim.Adam(list(encoder.parameters()) + list(decoder.parameters()))
    encoder.to(device)
    decoder.to(device)
    return optimizer


def other_model(device, teacher):
    student = torch.nn.Linear(4, 2)
    optimizer = torch.optim.SGD(student.parameters(), lr=0.1)
    teacher.to(device)
    return student, optimizer


def device_bound_between(model):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    device = torch.device("cuda")
    model.to(device)
    return optimizer
