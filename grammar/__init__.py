"""Package data: the rule-language grammar (rules.lark)."""
