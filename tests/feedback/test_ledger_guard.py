"""`Ledger.guard`: one holder per key at a time, other keys never wait, and no lock outlives its users."""

from __future__ import annotations

import asyncio

from pinup_feedback.ledger import Ledger


def test_one_holder_per_key_and_the_lock_is_dropped_after() -> None:
    async def scenario() -> list[str]:
        ledger, order = Ledger(), []

        async def hold(name: str, key: tuple[str, ...] | None, pause: float) -> None:
            async with ledger.guard(key):
                order.append(f"{name} in")
                await asyncio.sleep(pause)
                order.append(f"{name} out")

        first = asyncio.create_task(hold("a", ("final", "hero"), 0.05))
        await asyncio.sleep(0)
        await asyncio.gather(
            first, hold("b", ("final", "hero"), 0), hold("c", ("final", "other"), 0), hold("d", None, 0)
        )
        assert ledger._locks == {}
        return order

    order = asyncio.run(scenario())
    assert order.index("b in") > order.index("a out")  # same key: waits for the holder
    assert order.index("c out") < order.index("a out") and order.index("d out") < order.index("a out")


def test_a_waiter_cancelled_before_its_turn_leaves_no_lock_behind() -> None:
    async def scenario() -> None:
        ledger = Ledger()
        key = ("client", "hero", "1", "x")
        async with ledger.guard(key):
            waiter = asyncio.create_task(ledger.guard(key).__aenter__())
            await asyncio.sleep(0)
            waiter.cancel()
            await asyncio.gather(waiter, return_exceptions=True)
            assert ledger._locks[key][1] == 1  # only the holder
        assert ledger._locks == {}

    asyncio.run(scenario())
