# Twin of type_string_cast: a cast to a dtype (`x.type(torch.float32)`), to a named CPU type
# (`x.type(torch.FloatTensor)`), to a type string held in a name, and a type string printed:
# none is another tensor's type string read where it is cast, so none is rewritten.
import torch


def casts(x, a, kind):
    y = x.type(torch.float32)
    z = x.type(torch.FloatTensor)
    w = x.type(kind)
    print(a.type(), y.type())
    return y, z, w
