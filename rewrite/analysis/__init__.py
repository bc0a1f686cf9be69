"""The analyses behind the rules and the legality check, in rooms by the step they serve:

* ``facts/``: what ops and values are, from op schemas and fake tensors (reads, writes,
  aliases, in-place and functional variants, the engine's own copy op);
* ``semantics/``: what a graph computes: memory regions and element maps, value terms, and the
  comparison of two graphs (or two readings of one);
* ``inductor/``: a model of the pipeline around our pass: what Inductor computes lazily, what
  its reinplacing will do, what its passes before ours did, what AOTAutograd does with outputs;
* ``legality.py``: the check under every rewrite (semantics and the lowering model together);
* ``graph_facts.py``: the analyses the rule vocabulary's predicates ask, per graph and pass.

Each room imports only from the rooms listed before it.
"""
