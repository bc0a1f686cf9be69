"""rewrite: a declarative rule language and engine for mutation optimizations in PyTorch graphs."""
from rewrite.vocab import register_action, register_function, register_predicate

__version__ = "0.1.0"

__all__ = ["register_action", "register_function", "register_predicate", "__version__"]
