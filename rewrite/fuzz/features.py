"""The generator's choice points and their base weights (data, not logic).

Every random choice the generator makes goes through :class:`Knobs` with a *knob* name
``"<point>:<option>"``; the weights below say how often each option is taken.  Coverage steering
multiplies them (see :mod:`rewrite.fuzz.steer`) and ``--features`` zeroes whole groups.
"""
from __future__ import annotations

import random
from typing import Dict, Iterable, List, Mapping, Optional, Sequence

# point -> option -> base weight
WEIGHTS: Dict[str, Dict[str, float]] = {
    # what the next statement of fn is
    "stmt": {
        "view": 2, "mutate": 5, "setitem": 2, "indexed": 4, "copy": 2, "shift": 1, "self_read": 1,
        "old": 2, "compute": 3, "cond": 1.5, "while": 1.5,
        # last, and off outside custom-op programs: adding it left the draws of every plain program
        # as they were (``random.choices`` never lands on a zero weight at the end of the list)
        "custom_op": 10,
    },
    # what a program is built around (drawn from a stream of its own, so that the choices of
    # plain programs are those they were before custom-op programs existed)
    "program": {"plain": 3, "custom_ops": 1},
    # custom-op programs: the functionalization AOTAutograd wraps custom ops in
    # (``torch._inductor.config.enable_auto_functionalized_v2``)
    "auto_functionalized": {"v1": 1, "v2": 1},
    # layout of one data input
    "input": {
        "plain": 4, "int": 1, "view_of_base": 2, "base_and_view": 1, "overlapping_views": 1.5,
        "disjoint_views": 1, "same_twice": 1, "strided": 1,
    },
    "rank": {"1": 3, "2": 4, "3": 1},
    "mode": {"inference": 4, "training": 1},
    "index_input": {"no": 3, "yes": 1},
    # one step of a view chain
    "view": {
        "slice": 5, "narrow": 1, "select": 3, "diagonal": 1.5, "transpose": 2, "reshape": 1.5,
        "unsqueeze": 0.5, "dtype": 1, "as_strided": 0.5, "none": 4,
    },
    # the in-place pointwise op
    "mutate": {
        "add_": 4, "sub_": 1, "mul_": 2, "mul_tensor": 1, "fill_": 1, "zero_": 1, "neg_": 0.5,
        "clamp_": 0.5, "copy_": 2,
    },
    # the indexed update
    "indexed": {
        "index_put": 3, "index_put_acc": 2, "setitem_index": 2, "setitem_index2": 1, "index_copy": 2,
        "index_add": 2, "scatter": 1.5, "scatter_add": 1, "masked_fill": 2, "setitem_mask": 1,
    },
    "index_source": {"literal": 3, "input": 1},
    # where the value written comes from
    "value": {"scalar": 3, "var": 5, "self": 1.5},
    "value_op": {"none": 4, "scale": 1, "offset": 1, "flip": 1, "neg": 0.5, "clone": 1, "math": 1},
    # what a mutation writes into
    "target": {"input": 5, "view_var": 2, "value": 2, "recent": 2},
    # copies between inputs
    "copy": {"whole": 2, "slice": 3, "then_mutate_source": 2},
    "old": {"clone": 3, "scaled": 1, "sum": 1, "view": 2},
    "compute": {"clone": 2, "scale": 2, "binary": 3, "flip": 1, "mm": 2, "math": 2, "sum": 1, "chain": 1},
    # control flow
    "cond_mutates": {"true": 2, "false": 1, "both": 2, "neither": 0.5},
    "while_mutates": {"cond_fn": 2, "body": 3, "both": 2, "neither": 0.5},
    "cf_write": {"whole": 2, "slice": 3, "element": 3, "indexed": 2, "view_element": 2},
    "cf_nested": {"no": 4, "yes": 1},
    "cf_reuse_target": {"no": 1, "yes": 1},
    "cf_old_first": {"no": 2, "yes": 1},
    "returns": {"0": 1, "1": 3, "2": 3, "3": 1},
    # custom ops (rewrite.fuzz.custom_ops): the kernel of a new op, or a
    # call of an op the program defined before
    "op_kernel": {
        "reverse_into": 3, "shift_into": 2, "add_reversed": 2, "neighbour_into": 1, "cumsum": 1, "fused_add": 2,
        "rotary": 2, "cache_write": 2, "list_add": 2, "maybe_into": 1.5, "swap_old": 1.5, "scratch": 1,
        "mul_rows": 1.5,
    },
    "op_reuse": {"new": 3, "reuse": 1},
    # where a mutated argument comes from
    "op_arg": {"input": 3, "view": 3, "value": 1.5, "split": 2, "clone": 2, "buffer": 1.5},
    # where a read argument comes from: the mutated argument's own tensor (aliasing) or any other
    "op_src": {"same_root": 2, "other": 3},
    "op_list": {"slices": 3, "split": 1, "tensors": 1},
    "op_optional": {"tensor": 2, "none": 1},
    # an old value of a mutated argument read before the call (a clone, or the rows it writes)
    "op_old": {"none": 3, "clone": 2, "rows": 1},
}

# feature group -> the knobs it owns (``--features`` keeps only the listed groups' knobs;
# knobs of no group are always available)
GROUPS: Dict[str, List[str]] = {
    "views": ["stmt:view", "view:narrow", "view:select", "view:diagonal", "view:transpose", "view:reshape",
              "view:unsqueeze", "view:dtype", "view:as_strided", "target:view_var"],
    "indexed": ["stmt:indexed"],
    "copies": ["stmt:copy", "stmt:shift", "stmt:self_read", "value:self"],
    "aliasing": ["input:view_of_base", "input:base_and_view", "input:overlapping_views",
                 "input:disjoint_views", "input:same_twice", "input:strided"],
    "old_values": ["stmt:old"],
    "compute": ["stmt:compute", "target:value"],
    "training": ["mode:training"],
    "control_flow": ["stmt:cond", "stmt:while"],
    "integers": ["input:int"],
    "custom_ops": ["program:custom_ops", "stmt:custom_op"],
}
FEATURES = tuple(GROUPS)

# listing the group in ``--features`` also turns these knobs off: ``--features custom_ops,...``
# makes every program a custom-op program (with the other listed features)
EXCLUDES: Dict[str, List[str]] = {
    "custom_ops": ["program:plain"],
}


class FeatureError(ValueError):
    pass


def parse_features(text: Optional[str]) -> Optional[List[str]]:
    """``"views,indexed"`` -> the list; None or "all" -> None (everything)."""
    if text is None or text.strip() in ("", "all"):
        return None
    names = [t.strip() for t in text.split(",") if t.strip()]
    unknown = [n for n in names if n not in GROUPS]
    if unknown:
        raise FeatureError(f"unknown feature(s) {', '.join(unknown)}; choose from {', '.join(FEATURES)}")
    return names


class Knobs:
    """Weighted choices.  ``multipliers`` (knob -> factor) come from coverage steering;
    ``disabled`` knobs are never chosen (``--features``)."""

    def __init__(self, features: Optional[Sequence[str]] = None,
                 multipliers: Optional[Mapping[str, float]] = None):
        self.multipliers = dict(multipliers or {})
        self.disabled = set()
        if features is not None:
            for group, knobs in GROUPS.items():
                if group not in features:
                    self.disabled.update(knobs)
                else:
                    self.disabled.update(EXCLUDES.get(group, ()))

    def without(self, *knobs: str) -> "Knobs":
        """A copy with ``knobs`` off as well."""
        out = Knobs(multipliers=self.multipliers)
        out.disabled = self.disabled | set(knobs)
        return out

    def weight(self, point: str, option: str) -> float:
        knob = f"{point}:{option}"
        if knob in self.disabled:
            return 0.0
        return WEIGHTS[point][option] * self.multipliers.get(knob, 1.0)

    def enabled(self, point: str, option: str) -> bool:
        return self.weight(point, option) > 0

    def pick(self, rng: random.Random, point: str, options: Optional[Iterable[str]] = None) -> Optional[str]:
        """One of ``options`` (default: all of the point's options), by weight; None when every
        one is disabled."""
        names = list(WEIGHTS[point]) if options is None else list(options)
        weights = [self.weight(point, o) for o in names]
        if not any(w > 0 for w in weights):
            return None
        return rng.choices(names, weights=weights, k=1)[0]

    def order(self, rng: random.Random, point: str, options: Optional[Iterable[str]] = None) -> List[str]:
        """The enabled options in a weighted random order (try the first, fall back to the next)."""
        names = [o for o in (list(WEIGHTS[point]) if options is None else list(options))
                 if self.weight(point, o) > 0]
        out = []
        while names:
            o = rng.choices(names, weights=[self.weight(point, n) for n in names], k=1)[0]
            out.append(o)
            names.remove(o)
        return out
