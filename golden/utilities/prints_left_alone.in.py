def report(epoch, step, debug):
    print("always")
    if step % 10 == 0:
        print("every ten")
    if debug:
        print("debug")
