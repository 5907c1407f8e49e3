from standgen.cli import main

main()
