"""The runtime of one table, split by job; it names no game.

:class:`~companion.table.loop.Table` owns the game on one thread (``loop``); ``camera`` reads
frames, ``signals`` turns effects into lights and tunes, ``timers`` runs the timer a game asks
for, ``publish`` hands snapshots to the phones, ``advisor`` computes figures off the thread,
``actions`` parses the phones' table-wide words.
"""

from companion.table.camera import GridReader
from companion.table.loop import Table, TableFault
from companion.table.publish import Busy

__all__ = ["Busy", "GridReader", "Table", "TableFault"]
