"""How a process's connection budget splits among its pools, and the bound it holds to."""

from __future__ import annotations

import pytest

from checkout.db import budget as budgets


@pytest.mark.parametrize(
    ("total", "threads", "worker", "sandbox", "readers", "pool", "clock"),
    [
        (None, 8, True, True, 8, 9, 1),  # checkout serve's default: 19
        (None, 8, False, False, 8, 8, 0),  # a web process, sandbox off: 17
        (None, 0, True, True, 0, 1, 1),  # checkout worker: 3
        (14, 8, True, True, 5, 7, 1),
        (6, 8, True, True, 1, 3, 1),
        (4, 8, False, True, 1, 1, 1),
        (40, 4, True, True, 4, 34, 1),  # room beyond what the threads use goes to the pool
    ],
)
def test_the_parts_add_up_to_the_total_and_never_pass_it(total, threads, worker, sandbox, readers, pool, clock):
    budget = budgets.split(total, threads=threads, worker=worker, sandbox=sandbox)
    assert (budget.readers, budget.pool, budget.request_log, budget.clock) == (readers, pool, 1, clock)
    assert budget.readers + budget.pool + budget.request_log + budget.clock == budget.total
    if total is not None:
        assert budget.total == total


def test_the_default_gives_each_request_thread_a_kept_and_a_pooled_connection():
    assert budgets.least(8, worker=True, sandbox=True) == 19
    assert budgets.split(None, threads=8, worker=True, sandbox=True).total == 19
    assert budgets.least(4, worker=False, sandbox=False) == 9


def test_too_small_a_budget_is_refused_with_its_least():
    with pytest.raises(budgets.BudgetError, match=r"CHECKOUT_DATABASE_CONNECTIONS=3 is too few: .* at least 4"):
        budgets.split(3, threads=8, worker=True, sandbox=True)
    with pytest.raises(budgets.BudgetError, match="at least 3"):
        budgets.split(2, threads=0, worker=True, sandbox=True)


@pytest.mark.parametrize(("value", "parsed"), [(None, None), ("", None), (" ", None), (12, 12), ("12", 12)])
def test_the_setting_is_a_whole_number_or_unset(value, parsed):
    assert budgets.parse(value) == parsed


@pytest.mark.parametrize("value", ["many", "0", -1, "2.5"])
def test_a_setting_that_is_no_positive_whole_number_is_refused(value):
    with pytest.raises(budgets.BudgetError, match="CHECKOUT_DATABASE_CONNECTIONS must be"):
        budgets.parse(value)


def test_the_start_line_names_the_total_and_its_parts():
    line = budgets.split(14, threads=8, worker=True, sandbox=True).describe()
    assert line == (
        "database connections: at most 14 (8 request threads: 5 kept for reads + 7 pooled"
        " (the worker's included), 1 request log, 1 sandbox clock)"
    )


def test_a_process_that_listens_counts_its_listening_connection():
    budget = budgets.split(None, threads=8, worker=False, sandbox=True, listen=True)
    assert (budget.total, budget.readers, budget.pool, budget.changes) == (19, 8, 8, 1)
    assert budget.describe() == (
        "database connections: at most 19 (8 request threads: 8 kept for reads + 8 pooled, 1 request log,"
        " 1 sandbox clock, 1 listening for key changes)"
    )
    assert budgets.least(8, worker=True, sandbox=True, listen=True) == 20


def test_a_budget_with_no_room_to_listen_goes_without_rather_than_refuse_to_start():
    # A web process with its worker and the sandbox needs 4; listening would make it 5.
    tight = budgets.split(4, threads=8, worker=True, sandbox=True, listen=True)
    assert (tight.changes, tight.readers, tight.pool, tight.total) == (0, 0, 2, 4)
    roomy = budgets.split(6, threads=8, worker=True, sandbox=True, listen=True)
    assert (roomy.changes, roomy.readers, roomy.pool, roomy.total) == (1, 1, 2, 6)
