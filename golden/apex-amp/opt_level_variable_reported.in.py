from apex import amp

model, optimizer = amp.initialize(model, optimizer, opt_level=args.opt_level)
