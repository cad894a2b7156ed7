"""Deterministic generators of the project's own data (run as modules; output under data/)."""
