"""EWA-Assistant-v0: a user's instructions one at a time, leaning on earlier turns and on what the kitchen shows."""

from embodiedweb.domains.assistant.domain import AssistantDomain

__all__ = ["AssistantDomain"]
