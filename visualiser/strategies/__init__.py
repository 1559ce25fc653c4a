"""The chunking strategies. Importing this package registers the built-ins."""

from visualiser.strategies import structure_aware, token_based  # noqa: F401  (registration)
from visualiser.strategies.base import STRATEGIES, Chunk, Param, Strategy, get_strategy, register

__all__ = ["STRATEGIES", "Chunk", "Param", "Strategy", "get_strategy", "register"]

from visualiser.strategies import reference  # noqa: E402, F401  (registered after the built-ins)
