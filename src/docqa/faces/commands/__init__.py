"""The CLI's subcommands, one module per group, and what they share; faces/cli.py puts them on the app."""
