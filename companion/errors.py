"""The package's root exception, so callers can catch everything the companion raises."""


class CompanionError(Exception):
    """Root of every error the companion raises on purpose."""


class InputError(CompanionError, ValueError):
    """Bad input from a person or a file: the CLI prints it on one line and exits 2."""
