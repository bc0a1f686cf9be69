"""Errors a rule can run into while it is applied; each stops that candidate only."""
from __future__ import annotations


class EvalError(Exception):
    """A rule asked for something the graph cannot answer (bad index, missing binding, a None
    where a node is needed)."""


class ActionError(RuntimeError):
    """An action cannot do what it was asked on this graph."""


class Refused(Exception):
    """The legality check refused the rewrite."""


class EarlierPassError(RuntimeError):
    """Inductor would compile the graph to something else than it computes (what its passes
    before ours did, or what its reinplacing or scheduler will do after), and no rewrite repairs
    it: compilation stops rather than produce a wrong program."""
