from apex import amp

model, optimizer = amp.initialize(model, optimizer, opt_level="O2")
with amp.scale_loss(loss, optimizer) as scaled_loss:
    scaled_loss.backward()
    log(scaled_loss)
