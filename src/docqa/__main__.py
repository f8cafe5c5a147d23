from docqa.faces.cli import main

main()
