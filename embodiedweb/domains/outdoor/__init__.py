"""Outdoor domains on the Manhattan street graph: navigation, shopping, traveling."""

from embodiedweb.domains.outdoor.navigation import NavigationDomain
from embodiedweb.domains.outdoor.shopping import ShoppingDomain
from embodiedweb.domains.outdoor.traveling import TravelingDomain

__all__ = ["NavigationDomain", "ShoppingDomain", "TravelingDomain"]
