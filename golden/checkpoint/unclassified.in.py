import torch


def save_all(model, embeddings, vocab, args, state):
    torch.save(embeddings, "emb.pt")
    torch.save(model, "whole_model.pt")
    torch.save(vars(args), "args.pt")
    torch.save("done", "marker.pt")
    torch.save(model.state_dict(), "m.pt", pickle_protocol=4)
    state = {"model": model.state_dict()}
    torch.save(state, "ambiguous.pt")
