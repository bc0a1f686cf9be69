"""The value a ``path`` section binds: a node and the chain of users it followed."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import List

import torch.fx as fx


@dataclass
class PathValue:
    source: fx.Node
    steps: List[fx.Node] = field(default_factory=list)
    note: str = ""          # why the path stopped where it did

    @property
    def last(self) -> fx.Node:
        return self.steps[-1] if self.steps else self.source

    def describe(self) -> str:
        return " -> ".join(n.name for n in [self.source, *self.steps])
