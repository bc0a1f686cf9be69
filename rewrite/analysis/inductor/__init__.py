"""A model of the pipeline around our pass: what Inductor computes lazily (``lowering``), what its
reinplacing will do (``reinplace``), which ops it can compile (``compilable``), what its passes
before ours did (``earlier_passes``), what AOTAutograd does with outputs (``outputs``), and the
copies a graph keeps (``copies``)."""
