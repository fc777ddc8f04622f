# Twin of type_string_cast: casts between storages (`sto.type(x.storage().type())`, a storage of
# a walk over storages cast to a tensor's type). A storage is not a tensor: `TypedStorage.to`
# takes the device by keyword only, so `sto.to(x.storage())` raises TypeError on torch 2.9, and
# an XLA tensor has no storage. None is rewritten.
import torch


class SharedAllocation:
    def __init__(self, size):
        self.multi_storage = [torch.Storage(size)]

    def type_as(self, obj):
        new_sto = []
        for sto in self.multi_storage:
            new_sto.append(sto.type(obj.data.storage().type()))
        for sto in self.multi_storage:
            new_sto.append(sto.type(obj.type()))
        self.multi_storage = new_sto
