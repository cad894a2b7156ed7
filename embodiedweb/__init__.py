"""embodiedweb: Gymnasium environments where one agent acts in embodied worlds and on websites.

Importing the package registers the env ids (``EWA-Cooking-v0``, ...)::

    import gymnasium as gym
    import embodiedweb  # noqa: F401
    env = gym.make("EWA-Cooking-v0", web_mode="text")
"""

from embodiedweb.registration import register_all, registered_ids
from embodiedweb.versions import __version__

ENV_IDS = register_all()

__all__ = ["ENV_IDS", "registered_ids", "__version__"]
