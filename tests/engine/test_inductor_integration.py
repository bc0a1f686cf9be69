"""Integration with torch.compile's extension points (entry point, Inductor custom pass, cache)."""
import os
import subprocess
import sys
import textwrap

import pytest
import torch

from rewrite.backend import RulePass, make_backend


def test_backend_is_registered_through_the_entry_point():
    from torch._dynamo.backends.registry import list_backends, lookup_backend

    assert "rewrite" in list_backends(exclude_tags=())
    from rewrite.backend import rewrite_backend
    assert lookup_backend("rewrite") is rewrite_backend


def test_custom_pass_uuid_hashes_rules_and_changes_with_them(tmp_path):
    a = tmp_path / "a.rules"
    a.write_text("opset u = aten.index_put\n")
    b = tmp_path / "b.rules"
    b.write_text("opset u = aten.index_put | aten._unsafe_index_put\n")
    pa = RulePass(make_backend([a], base="eager").rule_set)
    pa2 = RulePass(make_backend([a], base="eager").rule_set)
    pb = RulePass(make_backend([b], base="eager").rule_set)
    assert pa.uuid() == pa2.uuid() != pb.uuid()


CACHE_SCRIPT = textwrap.dedent("""
    import torch
    from torch._dynamo.utils import counters
    from rewrite.backend import make_backend

    def composed(field, delta, indices, gain):
        field[1:-1].add_(delta)
        values = torch.index_select(field, 0, indices) * gain
        field.index_copy_(0, indices, values)

    be = make_backend(base="inductor")
    with torch.inference_mode():
        f = torch.ones(64)
        torch.compile(composed, backend=be, fullgraph=True)(f, torch.ones(62), torch.tensor([1, 2]), torch.tensor(2.0))
    print("hit", counters["inductor"]["fxgraph_cache_hit"], "miss", counters["inductor"]["fxgraph_cache_miss"],
          "fired", be.fired(), "value", f[1].item())
""")


@pytest.fixture(scope="module")
def inductor_cache(tmp_path_factory):
    """An Inductor cache folder of this module's own: its FX graph cache starts empty, and the
    tests that run processes on it share the C++ it compiles (precompiled headers, kernels:
    about 9 s of CPU for a fresh folder).  The tests compile different graphs, so none is served
    another's."""
    return tmp_path_factory.mktemp("inductor_cache")


def cache_env(cache_dir) -> dict:
    return dict(os.environ, TORCHINDUCTOR_CACHE_DIR=str(cache_dir), TORCHINDUCTOR_FX_GRAPH_CACHE="1")


@pytest.mark.inductor
def test_second_process_hits_the_fx_graph_cache(tmp_path, inductor_cache):
    env = cache_env(inductor_cache)
    script = tmp_path / "cache_run.py"
    script.write_text(CACHE_SCRIPT)
    runs = [subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=600)
            for _ in range(2)]
    for r in runs:
        assert r.returncode == 0, r.stderr[-2000:]
    first, second = (r.stdout.strip().splitlines()[-1] for r in runs)
    assert "miss 1" in first and "hit 0" in first and "reinplace_update_into_input" in first
    assert "hit 1" in second and "miss 0" in second
    assert first.split("value")[1] == second.split("value")[1]   # ((1 + 1) * 2) = 4 both times


@pytest.mark.inductor
def test_case2_post_grad_graph_stock_inductor_vs_rewrite():
    """Stock Inductor keeps the slice_scatter (a full clone of `field`) in the final post-grad
    graph it lowers; under the rules it is gone, and both compute what eager computes."""
    from rewrite.testing.final_graphs import capture_final_graphs

    def composed(field, delta, indices, gain):
        field[1:-1].add_(delta)
        values = torch.index_select(field, 0, indices) * gain
        field.index_copy_(0, indices, values)

    def inputs():
        g = torch.Generator().manual_seed(0)
        return torch.randn(64, generator=g), torch.randn(62, generator=g), torch.tensor([1, 5, 9]), torch.tensor(1.5)

    seen = {}
    for name, be in (("stock", "inductor"), ("rewrite", make_backend(base="inductor", cache=False))):
        torch._dynamo.reset()
        want, got = inputs(), inputs()
        with capture_final_graphs() as graphs, torch.inference_mode():
            compiled = torch.compile(composed, backend=be, fullgraph=True)
            for _ in range(3):
                composed(*want)
                compiled(*got)
                assert all(torch.allclose(a, b) for a, b in zip(want, got))
        seen[name] = "\n".join(g.text for g in graphs)
    assert "aten.slice_scatter.default" in seen["stock"]
    assert "aten.slice_scatter.default" not in seen["rewrite"]
    assert "aten.index_put_.default" in seen["rewrite"]
    # the only copy left is of the three gathered rows the update reads
    assert "f32[3][1]cpu\" = torch.ops.rewrite.materialized_copy.default" in seen["rewrite"]
    assert "f32[64][1]cpu\" = torch.ops.rewrite.materialized_copy.default" not in seen["rewrite"]
    assert "f32[64][1]cpu\" = torch.ops.aten.clone.default" not in seen["rewrite"]


USER_PREDICATE_SCRIPT = textwrap.dedent('''
    import sys, torch
    from torch._dynamo.utils import counters
    from rewrite import vocab
    from rewrite.backend import make_backend

    answer = sys.argv[2] == "yes"
    if answer:
        def allow_it(ctx, x):
            """Always allow."""
            return True
    else:
        def allow_it(ctx, x):
            """Never allow."""
            return False
    vocab.register_predicate("allow_it", allow_it)

    def slice_update(x, d):
        x[1:-1].add_(d)

    be = make_backend(rules=sys.argv[1], base="inductor")
    with torch.inference_mode():
        x = torch.zeros(8)
        torch.compile(slice_update, backend=be, fullgraph=True)(x, torch.ones(6))
    print("hit", counters["inductor"]["fxgraph_cache_hit"], "miss", counters["inductor"]["fxgraph_cache_miss"],
          "fired", be.fired(), "value", x.tolist())
''')

GATED_RULE = """\
opset view_scatter = aten.slice_scatter | aten.select_scatter

rule gated_scatter
  stage   post_grad
  match   s = view_scatter(base: input, src, ...)
  where   copied_back(s, base) and allow_it(base)
  safe    not alias_used_between(base, s, copy_back(base)) and same_layout(s, base)
  rewrite reinplace(s); erase(copy_back(base)); materialize_hazards()
"""


@pytest.mark.inductor
def test_cache_key_covers_registered_python_predicates(tmp_path, inductor_cache):
    """Two processes share Inductor's FX graph cache; the second registers a predicate of the
    same name with other code: it must not be served the first one's rewritten graph.  A third,
    with the first one's code, is."""
    env = cache_env(inductor_cache)
    script, rules = tmp_path / "gated.py", tmp_path / "gated.rules"
    script.write_text(USER_PREDICATE_SCRIPT)
    rules.write_text(GATED_RULE)
    lines = []
    for answer in ("yes", "no", "yes"):
        r = subprocess.run([sys.executable, str(script), str(rules), answer], env=env, capture_output=True,
                           text=True, timeout=600)
        assert r.returncode == 0, r.stderr[-2000:]
        lines.append(r.stdout.strip().splitlines()[-1])
    first, second, third = lines
    assert "miss 1" in first and "'gated_scatter'" in first
    assert "miss 1" in second and "hit 0" in second and "fired []" in second
    assert "hit 1" in third and "miss 0" in third
    expected = "value [0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0]"
    assert all(line.endswith(expected) for line in lines)


def test_cache_key_of_code_without_a_readable_source(tmp_path):
    """A predicate compiled from text under a borrowed file name (the docs' worked example is run
    that way) reads the wrong lines as its source, or lines that do not even tokenize: its key
    comes from its code object too, so two such predicates with other code never share a key,
    and reading never raises."""
    from rewrite import vocab

    pages = {"same lines": "A page\n\ndef pred(ctx, x):\n    return True\n",
             "open bracket": "A page\n\nwhose line 3 opens a bracket (\nand never closes it\n"}
    for label, text in pages.items():
        borrowed = tmp_path / "page.md"
        borrowed.write_text(text)
        keys = []
        for body in ("x is not None", "x is None", "x is not None"):
            namespace = {}
            exec(compile(f"\n\ndef pred(ctx, x):\n    return {body}\n", str(borrowed), "exec"), namespace)
            entry = vocab.register_predicate("pred", namespace["pred"], registry=vocab.BUILTINS.child())
            keys.append(entry.fingerprint())
        assert keys[0] != keys[1] and keys[0] == keys[2], label
