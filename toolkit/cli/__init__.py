"""The command line: one argparse program, `toolkit SUBCOMMAND` / `python -m toolkit SUBCOMMAND`."""
