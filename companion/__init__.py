"""Table Companion: a camera above a real game table that referees, scores and times games.

The core (``companion.games``) is pure; the wiring that runs a table lives beside it.
"""

from companion.errors import CompanionError

__all__ = ["CompanionError", "__version__"]
__version__ = "0.1.0"
