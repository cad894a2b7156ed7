"""The street world: the embedded Manhattan street graph, Touchdown and Google Street View backends."""

from .city import City, Location, Node, Place, build_city, load_city
from .world import StreetWorld

__all__ = ["City", "Location", "Node", "Place", "StreetWorld", "build_city", "load_city"]
