"""The geolocation world: real places as small street graphs whose views carry the cues of the place."""

from .world import GeoWorld, load_standpoints

__all__ = ["GeoWorld", "load_standpoints"]
