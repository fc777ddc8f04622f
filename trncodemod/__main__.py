from trncodemod.cli import main

main()
