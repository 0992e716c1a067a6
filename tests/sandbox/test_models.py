"""The shared sandbox clock row: created once, moved atomically, whoever gets there first."""

import threading

from checkout.sandbox.models import DatabaseOffsetStore


def test_first_advances_racing_to_create_the_row_all_count(app):
    stores = [DatabaseOffsetStore(app.config["DATABASE_URL"]) for _ in range(4)]
    stores[0].reset()  # no row: every advance below starts by finding none
    start, failures = threading.Barrier(len(stores)), []

    def advance(store):
        start.wait()
        try:
            store.add(60, 10**9)
        except Exception as exc:  # noqa: BLE001 (any failure is what this test looks for)
            failures.append(exc)

    threads = [threading.Thread(target=advance, args=(store,)) for store in stores]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    try:
        assert failures == [] and stores[0].load() == 240
    finally:
        stores[0].reset()
        for store in stores:
            store.engine.dispose()
