from pinup.cli import main

main()
