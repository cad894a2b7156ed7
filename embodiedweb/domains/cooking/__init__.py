"""Cooking: find the right recipe on the web, cook it step by step in a kitchen, buy what is missing."""

from embodiedweb.domains.cooking.domain import CookingDomain

__all__ = ["CookingDomain"]
