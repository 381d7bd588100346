"""Judging on several workers (one DuckDB database a core): the results one evaluator gives, in
order, bad fights marked where they stand; an error, an early stop or the time budget stops them."""

from __future__ import annotations

import itertools
import random
import threading
import time

import pytest

from engine import Engine
from engine.evaluators.workers import WORKERS_ENV
from engine.judge import Judge, _Chunks
from engine.limits import BudgetExceeded, budget

BAD = [42, {"hands": ["AH KD QS JC TH", "AH 3D 4S 5H 7C"]}, {"hands": ["AH KX QS JC TH", "2C 3D 4S 5H 7C"]},
       {"hands": ["AH KD QS JC"]}]


def fights(n: int, seed: int = 7) -> list:
    """n items: fights of two or three random hands, every seventh a bad one."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        if i % 7 == 3:
            out.append(BAD[i % len(BAD)])
            continue
        k = 3 if i % 5 == 0 else 2
        deck = rng.sample(range(1, 53), 5 * k)
        out.append({"id": f"f{i}", "hands": [deck[5 * j:5 * j + 5] for j in range(k)]})
    return out


_EARLIER: set[threading.Thread] = set()


@pytest.fixture(autouse=True)
def _threads_of_earlier_tests():
    """The threads alive when a test starts are not its own: a judge stopped by Ctrl-C waits for
    its workers a moment only (the command ends), so on a loaded machine an earlier test's
    worker may still be finishing its statement while this test looks."""
    _EARLIER.clear()
    _EARLIER.update(threading.enumerate())
    yield


def judge_threads() -> list[threading.Thread]:
    """This test's judge worker threads still alive."""
    return [t for t in threading.enumerate() if t.name.startswith("judge") and t not in _EARLIER]


@pytest.fixture
def engine(monkeypatch) -> Engine:
    monkeypatch.setenv(WORKERS_ENV, "2")
    return Engine()


def test_workers_give_what_one_evaluator_gives_in_order(engine):
    items = fights(1_500)
    judge = Judge(engine, chunk=200)
    got = [r.as_dict() for r in judge.judge(items)]
    one = Judge(engine, engine.evaluator(10 ** 6), chunk=10 ** 6)
    assert got == [r.as_dict() for r in one.judge(items)]
    assert len(got) == len(items)
    assert [r["id"] for r in got] == [item.get("id", i + 1) if isinstance(item, dict) else i + 1
                                      for i, item in enumerate(items)]
    assert sum("error" in r for r in got) >= len(items) // 7
    assert len(engine.workers()) == 2 and all(w._compiled is not None for w in engine.workers())
    assert "compiled" in judge.used
    assert judge_threads() == []


def test_progress_counts_every_fight_once(engine):
    seen: list[int] = []
    results = list(Judge(engine, chunk=300).judge(fights(1_000), progress=seen.append))
    assert len(results) == 1_000 and sum(seen) == 1_000 and len(seen) > 2


def test_an_error_in_a_worker_stops_the_batch_and_the_workers(engine, monkeypatch):
    calls = itertools.count()
    real = _Chunks._verdicts

    def failing(self, evaluator, batch):
        if next(calls) == 2:
            raise RuntimeError("boom in a worker")
        return real(self, evaluator, batch)

    monkeypatch.setattr(_Chunks, "_verdicts", failing)
    with pytest.raises(RuntimeError, match="boom in a worker"):
        list(Judge(engine, chunk=200).judge(fights(1_500)))
    assert judge_threads() == []


def test_a_budget_raised_again_while_the_workers_stop_still_waits_for_them(engine, monkeypatch):
    """A budget run out raises again every second (engine.limits.RERAISE) while it is active.
    Raised inside Thread.join, Python marks the thread stopped while it still runs (the join's
    lock released on the exception), so that a second shutdown returned at once and left the
    workers running: the cause of this file's time-budget test failing in loaded suite runs."""
    real = _Chunks._verdicts

    def slow(self, evaluator, batch):
        if threading.current_thread() is not threading.main_thread():
            time.sleep(2.5)              # a worker that stops only after the budget's second raise
        return real(self, evaluator, batch)

    monkeypatch.setattr(_Chunks, "_verdicts", slow)
    start = time.monotonic()
    with pytest.raises(BudgetExceeded, match="time budget"):
        with budget(0.3, what="the batch"):
            list(Judge(engine, chunk=200).judge(fights(1_500)))
    assert judge_threads() == [] and time.monotonic() - start < 10


def test_stopping_early_stops_the_workers_and_the_engine_judges_again(engine):
    results = Judge(engine, chunk=200).judge(fights(2_000))
    first = list(itertools.islice(results, 10))
    results.close()
    assert len(first) == 10 and judge_threads() == []
    again = [r.as_dict() for r in Judge(engine, chunk=200).judge(fights(500, seed=8))]
    assert again == [r.as_dict() for r in Judge(engine, engine.evaluator(10 ** 6)).judge(fights(500, seed=8))]


def test_the_time_budget_stops_the_workers_at_once(engine):
    start = time.monotonic()
    with pytest.raises(BudgetExceeded, match="time budget"):
        with budget(0.5, what="the batch"):
            list(Judge(engine, chunk=2_000).judge(fights(40_000)))
    assert time.monotonic() - start < 10
    assert judge_threads() == []


def test_one_worker_judges_in_the_main_thread(monkeypatch):
    monkeypatch.setenv(WORKERS_ENV, "1")
    engine = Engine()
    judge = Judge(engine, chunk=200)
    assert len(list(judge.judge(fights(600)))) == 600
    assert engine.workers() == [engine.evaluator(10 ** 6)] and judge_threads() == []


@pytest.mark.parametrize("value", ["abc", "0", "-2", "1000", "２"])
def test_a_bad_workers_setting_is_one_line_before_any_judging(tmp_path, monkeypatch, capsys, value):
    from engine.cli import main
    src, out = tmp_path / "in.jsonl", tmp_path / "out.yaml"
    src.write_text('{"hands": ["JH JD 2C 2S 4H", "TH TD 9C 9S 8H"]}\n')
    monkeypatch.delenv(WORKERS_ENV, raising=False)
    assert main(["judge", str(src), "-o", str(out)]) == 0      # the engine is kept from here on
    out.unlink()
    capsys.readouterr()
    monkeypatch.setenv(WORKERS_ENV, value)
    assert main(["judge", str(src), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "$POKER_WORKERS" in err and "number of workers" in err
    assert not out.exists()
