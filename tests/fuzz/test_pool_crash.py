"""A worker that dies (a native crash in a compiled program) must not end a long fuzz run: the
1,500-5,000 run of 2026-12-01 lost its judging phase to one `free(): invalid next size` in a
minimization worker."""
import os

from rewrite.fuzz.session import Pool


def _double_or_die(task, rules):
    if task == "die":
        os._exit(3)
    return task * 2


def test_a_task_whose_worker_dies_gets_the_crash_result_and_the_others_finish():
    pool = Pool(2, None)
    seen = []
    try:
        out = pool.map(_double_or_die, ["a", "die", "b", "c"], on_result=seen.append,
                       on_crash=lambda task, message: ("crashed", task, "died" in message))
    finally:
        pool.close()
    assert out == ["aa", ("crashed", "die", True), "bb", "cc"]
    assert sorted(map(str, seen)) == sorted(map(str, out))
