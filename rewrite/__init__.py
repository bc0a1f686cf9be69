"""rewrite: a declarative rule language and engine for mutation optimizations in PyTorch graphs.

``torch.compile(fn, backend="rewrite")`` runs Inductor with the shipped rules;
``rewrite.backend(rules=[...], base="inductor" | "eager")`` builds a backend from any rule files.
"""
from rewrite.vocab import register_action, register_function, register_predicate

__version__ = "0.1.0"

__all__ = ["backend", "register_action", "register_function", "register_predicate", "__version__"]


def __getattr__(name):
    # Importing torch is slow: the backend module is loaded on first use, not on `import rewrite`.
    if name == "backend":
        import importlib

        return importlib.import_module("rewrite.backend")
    raise AttributeError(name)
