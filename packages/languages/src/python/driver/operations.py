"""How each operation kind of the protocol (OPERATIONS in packages/shared/src/job/names.ts) runs on a Python
google-cloud-spanner Database: one entry per kind, so adding an operation is adding an entry. Each
operation is a function of the kind's index (for the scan's row times) that returns when it is done and
raises when it failed."""

import random
from typing import Callable, Dict

from contract_gen import PLAYER_COLUMNS, PLAYERS, SQL_INSERT_SCORE, SQL_LEADERBOARD, SQL_PLAYER, SQL_SELECT1
from protocol_gen import DriverCell
from scan import scan

Operation = Callable[[int], None]


def player_id() -> int:
    return random.randint(1, PLAYERS)


def _int64():
    from google.cloud.spanner_v1 import param_types

    return param_types.INT64


def select1(db, cell: DriverCell, rpcs) -> Operation:
    """A single-use read-only query, every row read."""

    def run(_kind: int) -> None:
        with db.snapshot() as snapshot:
            for _ in snapshot.execute_sql(SQL_SELECT1):
                pass

    return run


def read_only_txn(db, cell: DriverCell, rpcs) -> Operation:
    """A read-only transaction (a multi-use snapshot) running the leaderboard query."""
    INT64 = _int64()

    def run(_kind: int) -> None:
        with db.snapshot(multi_use=True) as snapshot:
            for _ in snapshot.execute_sql(SQL_LEADERBOARD, params={"Id": player_id()}, param_types={"Id": INT64}):
                pass

    return run


def read_write_txn(db, cell: DriverCell, rpcs) -> Operation:
    """A read-write transaction: read the player (a streaming query, what an abort hits), insert a score with
    the commit timestamp, commit. The client retries it whole when it is aborted."""
    INT64 = _int64()

    def work(tx) -> None:
        pid = player_id()
        for _ in tx.execute_sql(SQL_PLAYER, params={"playerId": pid}, param_types={"playerId": INT64}):
            pass
        tx.execute_update(SQL_INSERT_SCORE, params={"playerId": pid, "score": random.randrange(100000)}, param_types={"playerId": INT64, "score": INT64})

    def run(_kind: int) -> None:
        db.run_in_transaction(work)

    return run


def point_read(db, cell: DriverCell, rpcs) -> Operation:
    """A single-use read of one Players row by key."""
    from google.cloud.spanner_v1.keyset import KeySet

    def run(_kind: int) -> None:
        with db.snapshot() as snapshot:
            for _ in snapshot.read("Players", PLAYER_COLUMNS, KeySet(keys=[[player_id()]])):
                pass

    return run


OPERATIONS: Dict[str, Callable[..., Operation]] = {
    "select1": select1,
    "readOnlyTxn": read_only_txn,
    "readWriteTxn": read_write_txn,
    "pointRead": point_read,
    "scan": lambda db, cell, rpcs: scan(db, cell, rpcs),
}
