"""Bounds on rule input.  Rule files come from users, other teams and the internet: whatever they
contain, reading, parsing, checking and reporting stay bounded in time and memory, and going past
a bound is a located error naming it (documented in ``docs/language.md``, section "Limits")."""

MAX_FILE_BYTES = 32 * 2 ** 20       # one rule file
MAX_TOTAL_BYTES = 64 * 2 ** 20      # all files of one load, includes included
MAX_FILES = 1000                    # files of one load, includes included
MAX_INCLUDE_DEPTH = 32              # include chain length
MAX_NESTING = 64                    # nested calls, lists, patterns, attributes, indexing, not/and/or
INT_MIN, INT_MAX = -2 ** 63, 2 ** 63 - 1   # integer literals are 64-bit, like torch's ints
MAX_SHOWN = 200                     # diagnostics printed per report; the rest are counted
MAX_OVERLAP_COMPARISONS = 100_000   # pattern comparisons of the overlap check per load
