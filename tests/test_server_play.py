"""The server under play and load: a connection that stops reading, bots' levels and limits,
offers out of turn that show nothing of who holds them."""

from __future__ import annotations

import asyncio

import pytest

from commerce.rules import Ruleset
from commerce.server.hub import CLOSE_SLOW, Connection, Hub
from commerce.server.protocol import ChatMessage
from commerce.server.tables import Table, TableConfig
from tests.harness.noleak import check_offers, offer_rulesets


class _Peer:
    """A websocket's far end: reads everything, or (*stalled*) never reads again."""

    def __init__(self, stalled: bool = False) -> None:
        self.stalled = stalled
        self.got: list[str] = []
        self.closed: int | None = None

    async def send_text(self, data: str) -> None:
        if self.stalled:
            await asyncio.Event().wait()  # the peer's buffers are full: this never returns
        self.got.append(data)

    async def close(self, code: int = 1000) -> None:
        self.closed = code


def test_a_connection_that_stops_reading_is_dropped_and_holds_back_no_one() -> None:
    table = Table.new("t", "i", "host", TableConfig("peel", {}, 3),
                      bots={1: "random", 2: "random"})
    table.join("host", "Ann", 0)
    table.start("host", "g1", seed=3)

    async def run() -> tuple[_Peer, _Peer, Connection, Hub]:
        hub = Hub()
        fast, slow = _Peer(), _Peer(stalled=True)
        reader = Connection(fast, "t", 0, "host", capacity=8)
        stuck = Connection(slow, "t", None, None, capacity=8)
        hub.add(reader)
        hub.add(stuck)
        for k in range(40):
            await asyncio.wait_for(hub.send_all("t", ChatMessage(from_="Ann", text=f"{k}")),
                                   1.0)
            await asyncio.sleep(0)
        await asyncio.wait_for(hub.send_views(table), 1.0)
        for _ in range(5):
            await asyncio.sleep(0)
        return fast, slow, stuck, hub

    fast, slow, stuck, hub = asyncio.run(run())
    assert len(fast.got) == 41  # every chat line and the view: nothing held back
    assert stuck.dropped and slow.closed == CLOSE_SLOW
    assert [c.seat for c in hub.connections("t")] == [0]  # the stalled one is forgotten


def test_a_view_the_same_as_the_last_one_sent_is_not_sent_again() -> None:
    table = Table.new("t", "i", "host", TableConfig("peel", {}, 3),
                      bots={1: "random", 2: "random"})
    table.join("host", "Ann", 0)
    table.start("host", "g1", seed=3)

    async def run() -> _Peer:
        hub = Hub()
        peer = _Peer()
        hub.add(Connection(peer, "t", 0, "host"))
        for _ in range(3):
            await hub.send_views(table)
        await asyncio.sleep(0)
        return peer

    assert len(asyncio.run(run()).got) == 1


@pytest.mark.parametrize("rules", offer_rulesets(), ids=lambda r: r.id)
def test_what_a_seat_not_offered_is_sent_shows_no_pending_offer(rules: Ruleset) -> None:
    # Pounce offers are rare (a tricon, and its fourth card in the widow): more games
    games, sample = (8, 1.0) if rules.family == "widow" else (2, 0.5)
    report = check_offers(rules, games=games, sample=sample)
    assert report.offers > 2, f"no offer in {rules.id}: the check saw nothing"
    assert not report.leaks, f"{len(report.leaks)} of {report.checked}:\n" + \
        "\n".join(report.leaks[:5])
