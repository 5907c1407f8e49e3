from standgen.entry import main

main()
