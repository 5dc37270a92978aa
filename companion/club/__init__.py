"""A table in a club: its events and state on the club's MQTT broker, for the room's board.

``settings`` checks the ``[club]`` section and broker addresses; ``publisher`` sends the event
log through the broker (the log is the outbox); ``summary`` folds a game's standing for each
event. It is an edge: the table runs the same with or without it (docs/club.md).
"""

from companion.club.publisher import ClubPublisher
from companion.club.settings import Broker, ClubError, ClubSettings, parse_broker, topic

__all__ = ["Broker", "ClubError", "ClubPublisher", "ClubSettings", "parse_broker", "topic"]
