"""Image rendering helpers shared by the worlds and drivers."""
