# Twin of the evaluation-loop marker (TRN102): a walk over storages that moves each one
# (`for sto in self.multi_storage: new.append(sto.cuda())`) moves no batch and calls no model:
# no step marker.
import torch


class SharedAllocation:
    def __init__(self, size):
        self.multi_storage = [torch.Storage(size)]

    def cuda(self):
        new_sto = []
        for sto in self.multi_storage:
            new_sto.append(sto.cuda())
        self.multi_storage = new_sto
        return self
