"""``rewrite fuzz``: a seeded differential fuzzer of mutation programs (see docs/fuzz.md)."""
