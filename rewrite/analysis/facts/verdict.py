"""A yes/no answer with the reason for it: what predicates and checks return, so that a why-not
trace can say exactly what was found (never a bare ``False``)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Verdict:
    value: bool
    why: str = ""

    def __bool__(self) -> bool:
        return self.value


def yes(why: str = "") -> Verdict:
    return Verdict(True, why)


def no(why: str = "") -> Verdict:
    return Verdict(False, why)
