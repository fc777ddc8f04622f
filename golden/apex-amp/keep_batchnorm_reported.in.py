from apex import amp

model, optimizer = amp.initialize(
    model, optimizer, opt_level="O2", keep_batchnorm_fp32=False, loss_scale="dynamic"
)
