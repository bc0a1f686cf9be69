"""Where the post-grad rules run in Inductor's pipeline, and what runs after them.

The rules put mutation back into a functional graph, so nothing after them may assume a
functional graph: every pass Inductor runs after ``post_grad_custom_post_pass`` must be in
``MUTATION_AWARE`` below, with the reason it is.  A torch upgrade that adds a pass there fails
this test until someone has read that pass.  Both bases must run the same passes in the same
order, so that the eager base (the fast path of the corpus) sees the graphs Inductor sees.
"""
import pytest
import torch
from torch.fx.passes import graph_transform_observer

from rewrite.backend import make_backend

OURS = "post_grad_custom_post_pass"

#: Passes allowed after ours, each with why it is safe on a graph with in-place writes.
MUTATION_AWARE = {
    "stable_sort": "a topological sort that keeps the order of nodes it need not move; "
                   "in-place writes are ordered by their data dependences and by FX's stable order",
    "move_constructors_to_cuda": "moves constant constructors between devices; no reads or writes",
    "reinplace_inplaceable_ops": "Inductor's own mutation pass; our inductor.rules own its decisions "
                                 "(simulated, repaired or refused before it runs)",
    "fix_auto_functionalized_dtype_views": "rewrites auto_functionalized nodes only",
    "decompose_triton_kernel_wrapper_functional": "decomposes functional Triton wrappers into "
                                                  "clones + mutating calls, mutation-aware by design",
    "decompose_auto_functionalized": "turns auto_functionalized into clones + the mutating op",
    "decompose_scan_to_while_loop": "higher-order op decomposition into while_loop",
    "decompose_map_to_while_loop": "higher-order op decomposition into while_loop",
    "pattern_matcher": "the pattern passes of the four decompositions above (each runs its own)",
}


def slice_update(x, d):
    x[1:-1].add_(d)
    return x.sum()


def pass_names(base: str):
    names = []
    original = graph_transform_observer.GraphTransformObserver.__init__

    def record(self, gm, passname, *args, **kwargs):
        names.append(passname)
        original(self, gm, passname, *args, **kwargs)

    torch._dynamo.reset()
    backend = make_backend(base=base, cache=False)
    with pytest.MonkeyPatch.context() as mp, torch.no_grad():
        mp.setattr(graph_transform_observer.GraphTransformObserver, "__init__", record)
        torch.compile(slice_update, backend=backend)(torch.zeros(8), torch.ones(6))
    assert backend.fired() == ["reinplace_update_into_input"]
    return names


@pytest.mark.inductor
def test_only_mutation_aware_passes_run_after_ours_and_both_bases_agree():
    inductor, eager = pass_names("inductor"), pass_names("eager")
    assert inductor.count(OURS) == 1
    after = inductor[inductor.index(OURS) + 1:]
    unknown = sorted(set(after) - set(MUTATION_AWARE))
    assert not unknown, f"passes after ours that nobody has checked for a functional-graph assumption: {unknown}"
    # the functional passes the rules must come after
    before = inductor[:inductor.index(OURS)]
    assert {"remove_noop_ops", "post_grad_custom_pre_pass"} <= set(before)
    assert eager == inductor


def test_the_eager_base_runs_the_rules_after_the_functional_passes():
    eager = pass_names("eager")
    assert eager.index("remove_noop_ops") < eager.index(OURS) < eager.index("reinplace_inplaceable_ops")
    assert not set(eager[eager.index(OURS) + 1:]) - set(MUTATION_AWARE)
