"""Geolocation: explore street views, research on the wiki, name where you are (EWA-Geolocation-v0)."""

from embodiedweb.domains.geolocation.checker import check_answer, parse_answer
from embodiedweb.domains.geolocation.domain import GeolocationDomain

__all__ = ["GeolocationDomain", "check_answer", "parse_answer"]
