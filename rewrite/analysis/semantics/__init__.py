"""What a graph computes: memory regions and overlap (``symbolic``, ``regions``, ``overlap``),
element maps of views (``layout_maps``), value terms (``terms``), alias roots (``aliases``), the
evaluation of a graph as terms (``evaluation``) and the comparison of two graphs or two readings of
one (``comparison``); the grouped-heads reading of repeated key/value copies (``repeats``)."""
