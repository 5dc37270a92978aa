"""Finde den Mörder: find the chain M-Ö-R-D-E-R among 36 turned tiles."""

from companion.games.moerder.board import Board, BoardError, Tile

__all__ = ["Board", "BoardError", "Tile"]
