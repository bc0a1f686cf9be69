"""What ops and values are: read/write/alias facts from op schemas (``op_facts``, ``mutation``),
fake-tensor metadata (``fake``), and the answer-with-explanation type predicates return
(``verdict``)."""
