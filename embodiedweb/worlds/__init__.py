"""Embodied worlds: the kitchen simulator, the street graph and the geolocation standpoints."""
