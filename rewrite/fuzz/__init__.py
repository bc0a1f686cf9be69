"""``rewrite fuzz``: a seeded differential fuzzer of mutation programs (docs/fuzz.md).

Modules, in the order a program meets them:

* :mod:`~rewrite.fuzz.features`: the generator's choice points and their weights;
* :mod:`~rewrite.fuzz.program`: a program as data, its source, the minimizer's edits and the
  minimizer (greedy delta debugging);
* :mod:`~rewrite.fuzz.builder`: a program being built: inputs, the eager namespace each statement
  runs in as it is made, variables, views and values;
* :mod:`~rewrite.fuzz.generator`: seeded generation: the statements, and the entry points;
* :mod:`~rewrite.fuzz.custom_ops`: custom-op programs: the ops' kernels and definitions, and
  the calls of them;
* :mod:`~rewrite.fuzz.reference`: the eager reference run and what makes a program a fair test;
* :mod:`~rewrite.fuzz.oracle`: the compiled backends, their runs and the comparison with eager,
  and who is wrong: ours / stock / both / ok / skipped;
* :mod:`~rewrite.fuzz.steer`: rule coverage and coverage steering;
* :mod:`~rewrite.fuzz.worker`, :mod:`~rewrite.fuzz.session`: tasks, worker processes, a run, and
  the failures it writes out as corpus cases;
* :mod:`~rewrite.fuzz.summary`: the report and the JSON summary.
"""
