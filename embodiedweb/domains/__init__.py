"""Domains: cooking, navigation, shopping, traveling, geolocation (world + sites + checker + oracle)."""
