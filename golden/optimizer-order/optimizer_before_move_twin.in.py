# Twin of optimizer_before_move: the move already first, a statement between that reads the model
# (its state loaded into the optimizer's model before the move), an optimizer over two models and
# a move of another model are left as they are. (A move that reads a device bound between is
# optimizer_before_move_reading_new_name's: the optimizer goes below it.)
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

