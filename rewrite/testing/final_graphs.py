"""The graphs Inductor actually lowers, and the copies left in them.

Inductor logs every post-grad FX graph, after all of its own passes (its
``reinplace_inplaceable_ops`` included) and just before lowering it, through the
``post_grad_graphs`` artifact logger (``TORCH_LOGS=post_grad_graphs``).  The message is the graph's
``print_readable`` text headed "AFTER POST GRAD", with every value annotated like
``slice_scatter: "f32[8, 4][4, 1]cpu" = torch.ops.aten.slice_scatter.default(arg0_1, add, 0, 1, 3)``.
:func:`capture_final_graphs` listens to that logger (with Inductor's caches off: a cache hit skips
the passes and the log) and parses each message into a :class:`FinalGraph`::

    with capture_final_graphs() as graphs:
        torch.compile(fn)(*args)
    for g in graphs:
        for c in g.copies():
            print(g.kind, c.node.op, c.node.type, c.traffic_bytes)

A *copy* is a node that allocates a new buffer and fills all of it from an existing tensor:
``clone``, a same-dtype ``_to_copy``, the functional ``copy``, the functional scatters and indexed
updates (``slice_scatter`` ..., ``_generalized_scatter``, ``index_put``, ``index_copy``,
``scatter`` ...), ``roll``, a gather (``index``, ``index_select``, ``gather``) at least as large as
the tensor it reads (Inductor decomposes ``roll`` into one), and ``cat``/``stack`` when one of
their operands is a (view of a) graph input, i.e. when they copy existing state into a new buffer
(``copy_`` into a buffer that is not a graph input counts too).  A *copy-back* is ``copy_`` into a
graph input, the epilogue by which a functional graph writes a mutation back.  Both are counted as
if materialized:

* bytes written: the output's size (numel x itemsize);
* bytes read: the size of every tensor operand, in full (a scatter's base too, although the part
  it overwrites need not be read; the functional ``copy`` reads only its source), counting the
  distinct elements of a broadcast (stride-0) operand once;
* traffic = bytes read + bytes written; ``None`` when a size is symbolic.

Inductor may fuse a copy into a neighbouring kernel, so this is a model of the data movement the
graph asks for, not a measurement of the generated kernels; two graphs with the same copies get the
same figure.
"""
from __future__ import annotations

import ast
import contextlib
import logging
import math
import re
from dataclasses import dataclass, field
from typing import Dict, Iterator, List, Optional, Tuple, Union

LOGGER_NAME = "torch._inductor.compile_fx.__post_grad_graphs"

Dim = Union[int, str]   # a concrete size, or a symbolic one as printed ("s77", "s0 + 1")

ITEMSIZE = {
    "f64": 8, "f32": 4, "f16": 2, "bf16": 2, "c128": 16, "c64": 8, "c32": 4,
    "i64": 8, "i32": 4, "i16": 2, "i8": 1, "u64": 8, "u32": 4, "u16": 2, "u8": 1, "b8": 1,
    "f8e4m3fn": 1, "f8e5m2": 1, "f8e4m3fnuz": 1, "f8e5m2fnuz": 1,
}

# op packet (without overload) -> kind of copy.  "cat" and "stack" count only when they copy state
# (an operand is a view of a graph input); "_to_copy" only when it keeps the dtype and device.
SCATTERS = frozenset({
    "aten.slice_scatter", "aten.select_scatter", "aten.diagonal_scatter", "aten.as_strided_scatter",
    "inductor._generalized_scatter",
    "aten.index_put", "aten._unsafe_index_put", "aten.index_copy", "aten.index_add", "aten.index_fill",
    "aten.index_reduce", "aten.scatter", "aten.scatter_add", "aten.scatter_reduce", "aten.masked_scatter",
    "aten._unsafe_masked_index_put_accumulate", "aten.put",
})
CLONES = frozenset({"aten.clone", "aten.copy", "aten._to_copy", "rewrite.materialized_copy"})   # the last: our copies
MOVES = frozenset({"aten.roll"})
GATHERS = frozenset({"aten.index", "aten._unsafe_index", "aten.index_select", "aten.gather"})
STATE_MOVES = frozenset({"aten.cat", "aten.stack"})
VIEWS = frozenset({
    "aten.slice", "aten.select", "aten.view", "aten.reshape", "aten._unsafe_view", "aten.permute",
    "aten.transpose", "aten.t", "aten.expand", "aten.unsqueeze", "aten.squeeze", "aten.as_strided",
    "aten.diagonal", "aten.alias", "aten.unfold", "aten.split", "aten.split_with_sizes", "aten.narrow",
    "aten.view_as_real", "aten.view_as_complex", "aten.unbind", "aten.chunk", "getitem",
})

_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_CLASS = re.compile(r"^(\s*)class (\w+)\(.*\):\s*$")
_DEF = re.compile(r"^(\s*)def forward\(self,?\s*(.*)\)\s*(?:->.*)?:\s*$")
_ASSIGN = re.compile(r"^\s*([A-Za-z_]\w*)\s*(?::\s*\"([^\"]*)\")?\s*=\s*(.+?)\s*$")
_DELS = re.compile(r";\s+(?:[A-Za-z_]\w*\s*=\s*)+None\s*$")
_TENSOR_TYPE = re.compile(r"^([a-z0-9]+)\[(.*?)\]\[(.*?)\](.*)$")
_FILE = re.compile(r"^\s*# File: (.*)$")


# ---------------------------------------------------------------------------------- values

@dataclass(frozen=True)
class TensorType:
    """A tensor annotation of the printed graph: ``f32[8, 4][4, 1]cpu``."""
    dtype: str
    shape: Tuple[Dim, ...]
    stride: Tuple[Dim, ...]
    device: str

    @property
    def itemsize(self) -> Optional[int]:
        return ITEMSIZE.get(self.dtype)

    @property
    def concrete(self) -> bool:
        return all(isinstance(d, int) for d in self.shape + self.stride)

    @property
    def numel(self) -> Optional[int]:
        return math.prod(self.shape) if all(isinstance(d, int) for d in self.shape) else None

    @property
    def nbytes(self) -> Optional[int]:
        """Size of the whole (logical) tensor."""
        n, size = self.numel, self.itemsize
        return None if n is None or size is None else n * size

    @property
    def distinct_bytes(self) -> Optional[int]:
        """Bytes of distinct elements: a broadcast (stride-0) dimension counts once."""
        if self.itemsize is None or not self.concrete:
            return None
        return math.prod(d for d, s in zip(self.shape, self.stride) if s != 0) * self.itemsize

    def __str__(self) -> str:
        return f"{self.dtype}[{', '.join(map(str, self.shape))}]"


def parse_type(annotation: Optional[str]) -> Optional[TensorType]:
    """``"f32[s0, 4][4, 1]cpu"`` -> TensorType; ``"Sym(s0)"``, tuples or nothing -> None."""
    if not annotation:
        return None
    m = _TENSOR_TYPE.match(annotation.strip())
    if not m:
        return None
    dtype, shape, stride, device = m.groups()
    return TensorType(dtype, _dims(shape), _dims(stride), device)


def _dims(text: str) -> Tuple[Dim, ...]:
    return tuple(int(d) if re.fullmatch(r"-?\d+", d) else d for d in _split_top(text))


def _split_top(text: str) -> List[str]:
    """Split at the commas outside brackets: ``"Max(1, s0), 4"`` -> ["Max(1, s0)", "4"]."""
    parts, depth, current = [], 0, ""
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += ch
    if current.strip():
        parts.append(current.strip())
    return parts


# ---------------------------------------------------------------------------------- graphs

@dataclass
class FinalNode:
    name: str
    op: str                           # "aten.slice_scatter.default", "placeholder", "getitem", "sym", ...
    type: Optional[TensorType]        # None for symbolic ints, tuples of tensors, opaque values
    annotation: str                   # as printed, e.g. "f32[8, 4][4, 1]cpu" or "Sym(s0)"
    operands: Tuple[str, ...] = ()    # names of the graph values it takes, in argument order
    source: Optional[str] = None      # the "# File:" comment above it: "path:line in fn, code: ..."
    line: int = -1                    # index into the graph's text lines

    @property
    def packet(self) -> str:
        """The op without its overload: "aten.slice_scatter"."""
        parts = self.op.split(".")
        return ".".join(parts[:2]) if len(parts) >= 3 else self.op


@dataclass
class Section:
    """One ``forward`` of the printed module: the graph itself, or a subgraph of a higher-order op."""
    name: str                         # "" for the graph itself, else the submodule ("true_graph_0")
    placeholders: List[FinalNode] = field(default_factory=list)
    nodes: List[FinalNode] = field(default_factory=list)
    outputs: Tuple[str, ...] = ()

    def __post_init__(self):
        self.by_name: Dict[str, FinalNode] = {}

    def add(self, node: FinalNode) -> None:
        (self.placeholders if node.op == "placeholder" else self.nodes).append(node)
        self.by_name[node.name] = node

    def root(self, name: str) -> FinalNode:
        """Follow views (first operand) back to the value they view."""
        node = self.by_name[name]
        seen = set()
        while node.packet in VIEWS and node.operands and node.name not in seen:
            seen.add(node.name)
            node = self.by_name.get(node.operands[0], node)
        return node

    def source_of(self, node: FinalNode) -> Optional[str]:
        """The node's "# File:" line; for a node Inductor made (no stack trace), that of the
        nearest operand that has one, else of its first user that has one."""
        if node.source:
            return node.source
        for name in node.operands:
            operand = self.by_name.get(name)
            if operand is not None and operand.source:
                return operand.source
        return next((n.source for n in self.nodes if node.name in n.operands and n.source), None)

    def is_input(self, name: str) -> bool:
        return name in self.by_name and self.by_name[name].op == "placeholder"


@dataclass
class Copy:
    """A copy (or copy-back) node with its traffic (see the module docstring)."""
    node: FinalNode
    kind: str                         # "clone", "scatter", "move", "gather", "state-cat", "copy_", "copy-back"
    section: str
    bytes_read: Optional[int]
    bytes_written: Optional[int]
    source: Optional[str] = None      # the model code it comes from (see Section.source_of)
    fed_by: Optional[str] = None      # copy-backs: the copy whose buffer (updated in place or not) is written back

    @property
    def traffic_bytes(self) -> Optional[int]:
        if self.bytes_read is None or self.bytes_written is None:
            return None
        return self.bytes_read + self.bytes_written

    def describe(self) -> str:
        size = "?" if self.bytes_written is None else f"{self.bytes_written / 2 ** 20:.3f} MiB"
        where = f" [{self.section}]" if self.section else ""
        return f"{self.node.name} = {self.node.op} -> {self.node.type or self.node.annotation} ({size}){where}"


@dataclass
class FinalGraph:
    """A post-grad graph as Inductor lowers it, parsed from its logged text."""
    text: str
    sections: List[Section]
    compile_id: Optional[str] = None  # Dynamo's "frame/compile" id, when known
    kind: str = ""                    # "inference", "forward" or "backward"

    @property
    def main(self) -> Section:
        return self.sections[0]

    @property
    def lines(self) -> List[str]:
        return self.text.splitlines()

    def nodes(self) -> Iterator[Tuple[Section, FinalNode]]:
        for s in self.sections:
            for n in s.nodes:
                yield s, n

    def op_counts(self) -> Dict[str, int]:
        counts: Dict[str, int] = {}
        for _, n in self.nodes():
            counts[n.packet] = counts.get(n.packet, 0) + 1
        return counts

    def copies(self) -> List[Copy]:
        """Nodes that allocate a new buffer and fill all of it from existing tensors."""
        return [c for c in (_classify(s, n) for s, n in self.nodes()) if c is not None and c.kind != "copy-back"]

    def copy_backs(self) -> List[Copy]:
        """``copy_`` into a graph input of the section (the epilogues of functionalized mutations).
        ``fed_by`` names the copy that made the buffer written back, when there is one: then the
        input is copied out and back in, the pattern reinplacing removes."""
        backs = [c for c in (_classify(s, n) for s, n in self.nodes()) if c is not None and c.kind == "copy-back"]
        for c in backs:
            section = next(s for s in self.sections if s.name == c.section)
            c.fed_by = _feeding_copy(section, c.node)
        return backs

    def excerpt(self, node: FinalNode, before: int = 6, after: int = 6) -> str:
        """The printed lines around ``node`` (``before``/``after`` node lines, with the comments
        between them)."""
        lines = self.lines
        node_lines = [n.line for _, n in self.nodes()]
        i = node_lines.index(node.line)
        lo = node_lines[max(0, i - before)]
        hi = node_lines[min(len(node_lines) - 1, i + after)]
        while lo > 0 and lines[lo - 1].strip().startswith("#"):
            lo -= 1
        return "\n".join(_shorten(l) for l in lines[lo:hi + 1])


def _shorten(line: str, width: int = 220) -> str:
    line = _DELS.sub("", line.rstrip())
    return line if len(line) <= width else line[:width - 3] + "..."


def _operand_bytes(section: Section, names: Tuple[str, ...]) -> Optional[int]:
    total = 0
    for name in names:
        node = section.by_name.get(name)
        if node is None or node.type is None:
            continue   # symbolic ints and scalars are not tensor traffic
        b = node.type.distinct_bytes
        if b is None:
            return None
        total += b
    return total


def _classify(section: Section, node: FinalNode) -> Optional[Copy]:
    packet, kind = node.packet, None
    if packet in SCATTERS:
        kind = "scatter"
    elif packet in MOVES:
        kind = "move"
    elif packet in CLONES:
        kind = "clone"
        if packet == "aten._to_copy" and not _same_dtype_device(section, node):
            return None
    elif packet in GATHERS:
        if not _whole_gather(section, node):
            return None
        kind = "gather"
    elif packet in STATE_MOVES:
        if not any(section.root(o).op == "placeholder" for o in node.operands if o in section.by_name):
            return None
        kind = "state-cat"
    elif packet == "aten.copy_" and node.operands:
        dst = node.operands[0]
        if section.is_input(dst):
            kind = "copy-back"
        elif dst in section.by_name and section.root(dst).op == "placeholder":
            return None   # a partial write into an input: in place, not a copy
        else:
            kind = "copy_"
    if kind is None:
        return None
    read_names = node.operands[1:2] if packet in ("aten.copy", "aten.copy_") else node.operands
    out = node.type if node.type is not None else _operand_type(section, node.operands[:1])
    written = out.nbytes if out is not None else None
    return Copy(node, kind, section.name, _operand_bytes(section, read_names), written, section.source_of(node))


def _operand_type(section: Section, names: Tuple[str, ...]) -> Optional[TensorType]:
    return next((section.by_name[n].type for n in names if n in section.by_name), None)


def _feeding_copy(section: Section, copy_back: FinalNode) -> Optional[str]:
    """Follow the written-back value through views and in-place updates (``index_put_`` ...) to the
    buffer they write; its name if a copy made it."""
    if len(copy_back.operands) < 2:
        return None
    node, seen = section.by_name.get(copy_back.operands[1]), set()
    while node is not None and node.name not in seen and node.operands:
        seen.add(node.name)
        c = _classify(section, node)
        if c is not None and c.kind not in ("copy-back", "copy_"):
            return node.name
        if node.packet in VIEWS or node.packet.endswith("_"):
            node = section.by_name.get(node.operands[0])
        else:
            return None
    return None


def _whole_gather(section: Section, node: FinalNode) -> bool:
    """A gather that produces at least as many elements as its source has (a permutation, a roll)."""
    src = _operand_type(section, node.operands[:1])
    if src is None or node.type is None:
        return False
    if src.numel is not None and node.type.numel is not None:
        return node.type.numel >= src.numel > 0
    return src.shape == node.type.shape


def _same_dtype_device(section: Section, node: FinalNode) -> bool:
    src = _operand_type(section, node.operands[:1])
    return src is not None and node.type is not None and (src.dtype, src.device) == (node.type.dtype, node.type.device)


# ---------------------------------------------------------------------------------- parsing

def parse_final_graph(text: str, compile_id: Optional[str] = None) -> FinalGraph:
    """Parse one logged "AFTER POST GRAD" message (or any ``print_readable(include_stride=True)``
    text).  Lines it does not understand are skipped."""
    text = _ANSI.sub("", text)
    sections: List[Section] = []
    current: Optional[Section] = None
    pending_class, source = "", None
    for i, line in enumerate(text.splitlines()):
        if m := _CLASS.match(line):
            pending_class = m.group(2)
            continue
        if m := _DEF.match(line):
            current = Section("" if not sections else pending_class)
            sections.append(current)
            source = None
            for param in _split_top(m.group(2)):
                name, _, ann = param.partition(":")
                ann = ann.strip().strip('"')
                current.add(FinalNode(name.strip(), "placeholder", parse_type(ann), ann, line=i))
            continue
        if current is None:
            continue
        stripped = line.strip()
        if m := _FILE.match(line):
            source = m.group(1)
        elif stripped.startswith("# No stacktrace"):
            source = None
        elif stripped.startswith("return"):
            current.outputs = tuple(n.id for n in _names(_parse_expr(stripped[len("return"):].strip())))
        elif not stripped.startswith("#") and (m := _ASSIGN.match(_DELS.sub("", line))):
            name, ann, rhs = m.groups()
            expr = _parse_expr(rhs)
            if expr is None or (isinstance(expr, ast.Constant) and expr.value is None):
                continue
            operands = tuple(dict.fromkeys(n.id for n in _names(expr) if n.id in current.by_name))
            current.add(FinalNode(name, _op_name(expr), parse_type(ann), ann or "", operands, source, i))
    if not sections:
        raise ValueError("no 'def forward' in the graph text")
    return FinalGraph(text, sections, compile_id, _kind(sections[0]))


def _kind(main: Section) -> str:
    """AOTAutograd's input names: ``tangents_N`` in a backward, ``primals_N`` in a training
    forward, ``argN_1`` in an inference graph."""
    names = [p.name for p in main.placeholders]
    if any(n.startswith("tangents") for n in names):
        return "backward"
    return "forward" if any(n.startswith("primals") for n in names) else "inference"


def _parse_expr(text: str) -> Optional[ast.expr]:
    try:
        return ast.parse(text, mode="eval").body
    except SyntaxError:
        return None


def _names(expr: Optional[ast.AST]) -> List[ast.Name]:
    """Names in argument order (the callee itself excluded)."""
    if expr is None:
        return []
    if isinstance(expr, ast.Call):
        parts = list(expr.args) + [k.value for k in expr.keywords]
        return [n for p in parts for n in _names(p)]
    if isinstance(expr, ast.Name):
        return [expr]
    return [n for child in ast.iter_child_nodes(expr) for n in _names(child)]


def _op_name(expr: ast.expr) -> str:
    if isinstance(expr, ast.Call):
        callee = ast.unparse(expr.func)
        for prefix in ("torch.ops.", "torch._ops.", "operator."):
            if callee.startswith(prefix):
                return callee[len(prefix):]
        return callee
    if isinstance(expr, ast.Subscript):
        return "getitem"
    if isinstance(expr, ast.Attribute) and ast.unparse(expr).startswith("self."):
        return "get_attr"
    if isinstance(expr, (ast.BinOp, ast.UnaryOp, ast.Compare, ast.BoolOp)):
        return "sym"
    return type(expr).__name__


def parse_log_message(message: str, compile_id: Optional[str] = None) -> Optional[FinalGraph]:
    """A logged message -> FinalGraph, or None if it is not an "AFTER POST GRAD" graph."""
    if "AFTER POST GRAD" not in message:
        return None
    return parse_final_graph(message, compile_id)


# ---------------------------------------------------------------------------------- capture

class _Collect(logging.Handler):
    def __init__(self, graphs: List[FinalGraph]):
        super().__init__(logging.DEBUG)
        self.graphs = graphs

    def emit(self, record: logging.LogRecord) -> None:
        import torch

        compile_id = torch._guards.CompileContext.current_compile_id()
        graph = parse_log_message(record.getMessage(), None if compile_id is None else str(compile_id))
        if graph is not None:
            self.graphs.append(graph)


@contextlib.contextmanager
def capture_final_graphs(caches_off: bool = True) -> Iterator[List[FinalGraph]]:
    """Collect, into the list it yields, every post-grad graph Inductor compiles in this thread's
    process while the block runs (parsed, in compile order, with Dynamo's compile id).

    ``caches_off`` turns off Inductor's FX graph cache and AOTAutograd's cache for the block: a
    graph served from either skips the post-grad passes and is never logged.  A graph whose
    forward and backward both appear gets kinds "forward" and "backward"; a lone one "inference"
    (or "forward" when its backward has not been compiled yet)."""
    import torch

    graphs: List[FinalGraph] = []
    log = logging.getLogger(LOGGER_NAME)
    handler = _Collect(graphs)
    saved = log.level, log.propagate
    log.setLevel(logging.DEBUG)
    log.propagate = False
    log.addHandler(handler)
    patches = contextlib.ExitStack()
    if caches_off:
        patches.enter_context(torch._inductor.config.patch(fx_graph_cache=False))
        patches.enter_context(torch._functorch.config.patch(enable_autograd_cache=False))
    try:
        with patches:
            yield graphs
    finally:
        log.removeHandler(handler)
        log.setLevel(saved[0])
        log.propagate = saved[1]


# ---------------------------------------------------------------------------------- summaries

@dataclass
class CopySummary:
    copies: int = 0
    copy_bytes: Optional[int] = 0        # bytes written by the copies (their outputs)
    traffic: Optional[int] = 0           # bytes read + written by the copies
    copy_backs: int = 0
    copy_back_traffic: Optional[int] = 0

    def add(self, graph: FinalGraph) -> "CopySummary":
        for c in graph.copies():
            self.copies += 1
            self.copy_bytes = _plus(self.copy_bytes, c.bytes_written)
            self.traffic = _plus(self.traffic, c.traffic_bytes)
        for c in graph.copy_backs():
            self.copy_backs += 1
            self.copy_back_traffic = _plus(self.copy_back_traffic, c.traffic_bytes)
        return self


def summarize(graphs: List[FinalGraph]) -> CopySummary:
    """Copies and copy-backs over ``graphs`` (each counted once: one call runs each graph once)."""
    summary = CopySummary()
    for g in graphs:
        summary.add(g)
    return summary


def _plus(a: Optional[int], b: Optional[int]) -> Optional[int]:
    return None if a is None or b is None else a + b
