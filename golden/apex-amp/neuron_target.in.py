# golden: target=neuron
import torch
import apex.amp

model, optimizer = apex.amp.initialize(model, optimizer, opt_level="O2")
with apex.amp.scale_loss(loss, optimizer) as scaled:
    scaled.backward(retain_graph=True)
