"""``rewrite fuzz``: a seeded differential fuzzer of mutation programs (docs/fuzz.md).

Modules, in the order a program meets them:

* :mod:`~rewrite.fuzz.features`: the generator's choice points and their weights;
* :mod:`~rewrite.fuzz.program`: a program as data, its source, the minimizer's edits;
* :mod:`~rewrite.fuzz.generator`: seeded generation, statement by statement, run eagerly as it goes;
* :mod:`~rewrite.fuzz.reference`: the eager reference run and what makes a program a fair test;
* :mod:`~rewrite.fuzz.oracle`: the compiled backends, their runs and the comparison with eager;
* :mod:`~rewrite.fuzz.classify`: ours / stock / both / ok / skipped;
* :mod:`~rewrite.fuzz.minimize`: greedy delta debugging;
* :mod:`~rewrite.fuzz.emit`: a failing program as a corpus case;
* :mod:`~rewrite.fuzz.steer`: rule coverage and coverage steering;
* :mod:`~rewrite.fuzz.worker`, :mod:`~rewrite.fuzz.session`: tasks, worker processes, a run;
* :mod:`~rewrite.fuzz.summary`: the report and the JSON summary.
"""
