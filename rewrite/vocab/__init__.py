"""The vocabulary rule files may use: predicates, functions, actions, node attributes and fact
tables.  Rule files never contain Python; every name they call is declared from Python.

* :mod:`rewrite.vocab.registry`: how a name is declared and looked up (kinds of values, entries,
  the registry, the decorators that declare a built-in);
* :mod:`rewrite.vocab.builtins`: every built-in, declared once (its kinds, needs, stages, doc);
* this module: the registry rules are checked and run against (:func:`default_registry`), and
  the public API user code registers its own names with (:func:`register_predicate`,
  :func:`register_function`, :func:`register_action`; kinds from the annotations, or
  ``params=``).

Adding a built-in predicate is one decorated function in :mod:`rewrite.vocab.builtins`::

    from rewrite.vocab import Node, predicate

    @predicate()
    def is_contiguous(ctx, x: Node) -> bool:
        '''x is laid out contiguously.'''
        return ctx.facts.is_contiguous(x)

This package does not import torch: ``rewrite check`` reads declarations without it.
"""
from __future__ import annotations

from typing import Callable, Optional, Sequence

import rewrite.vocab.builtins  # noqa: F401  (declares the built-ins in BUILTINS)
from rewrite.vocab.registry import (  # noqa: F401  (the names rule-facing code imports from here)
    BUILTINS, ENTRY_KINDS, KINDS, Any, Attribute, Bool, Const, Entry, FactTable, Kind, List, Node, Nothing,
    Number, Op, OptNode, Param, Path, Registry, VocabularyError, accepts, action, attribute, fact_table,
    function, predicate,
)

#: Names registered through the public API, layered over the built-ins.
_USER = BUILTINS.child()


def default_registry() -> Registry:
    """Built-ins plus everything registered through the public API."""
    return _USER


def register_predicate(name: str, fn: Callable, arity: Optional[int] = None, doc: Optional[str] = None,
                       registry: Optional[Registry] = None, params: Optional[Sequence] = None,
                       needs: Sequence[str] = (), stages: Optional[Sequence[str]] = None,
                       version: Optional[str] = None) -> Entry:
    """Register ``fn(ctx, *args) -> bool`` as a predicate callable from rule files.  ``version``
    names the behaviour for Inductor's FX graph cache; without it the code is hashed."""
    return (registry or _USER).register(name, "predicate", fn, params, None, doc, needs, stages,
                                        version=version, arity=arity)


def register_function(name: str, fn: Callable, arity: Optional[int] = None, doc: Optional[str] = None,
                      registry: Optional[Registry] = None, params: Optional[Sequence] = None,
                      result: Optional[Kind] = None, needs: Sequence[str] = (),
                      stages: Optional[Sequence[str]] = None, version: Optional[str] = None) -> Entry:
    """Register ``fn(ctx, *args) -> value`` as a function callable from rule files."""
    return (registry or _USER).register(name, "function", fn, params, result, doc, needs, stages,
                                        version=version, arity=arity)


def register_action(name: str, fn: Callable, arity: Optional[int] = None, doc: Optional[str] = None,
                    registry: Optional[Registry] = None, params: Optional[Sequence] = None,
                    needs: Sequence[str] = (), stages: Optional[Sequence[str]] = None,
                    version: Optional[str] = None) -> Entry:
    """Register ``fn(ctx, *args)`` as a graph action usable in ``rewrite`` and ``via``."""
    return (registry or _USER).register(name, "action", fn, params, None, doc, needs, stages,
                                        version=version, arity=arity)
