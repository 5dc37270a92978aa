"""The command-line tools of each game: files, printing and clocks live here, never in the
pure game packages. Each module adds its sub-commands with ``register(subparsers)``."""
