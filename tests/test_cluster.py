"""Playtests on a Dask cluster: the same seed gives the same report as local processes."""
from __future__ import annotations

import distributed
import pytest

from cardgen.errors import CardgenError
from cardgen.games.common_carrier import CommonCarrierGame
from cardgen.playtest import TIMING_KEYS, run_playtest


def without_timing(report: dict) -> dict:
    return {k: v for k, v in report.items() if k not in TIMING_KEYS}


@pytest.fixture(scope="module")
def scheduler():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, host="127.0.0.1",
                                       protocol="tcp", dashboard_address=None)
    try:
        yield cluster.scheduler_address
    finally:
        cluster.close()


def test_a_cluster_run_gives_the_local_report(scheduler):
    assert scheduler.startswith("tcp://127.0.0.1:")
    game = CommonCarrierGame(options={"target": 6})
    local = run_playtest(game, 150, seed=11, jobs=2)
    remote = run_playtest(game, 150, seed=11, scheduler=scheduler)
    assert without_timing(remote) == without_timing(local)


def test_the_cli_takes_a_scheduler(cli, scheduler):
    import json

    remote = cli("playtest", "common-carrier", "--games", "20", "--scheduler", scheduler, "--json")
    local = cli("playtest", "common-carrier", "--games", "20", "--json")
    assert remote.exit_code == 0, remote.output
    assert without_timing(json.loads(remote.output)) == without_timing(json.loads(local.output))


def test_a_batch_that_fails_on_its_worker_is_played_again(scheduler, monkeypatch, tmp_path):
    """The first attempt of one batch dies as a lost connection does; the retry plays it once more, and
    the report counts every game once. (A worker that disappears is re-run by the scheduler itself.)"""
    from cardgen import playtest

    real = playtest._play_chunk
    marks = tmp_path

    def flaky(args):
        first = args[1].start
        attempt = len(list(marks.glob(f"batch-{first}-*"))) + 1
        (marks / f"batch-{first}-{attempt}").touch()
        if first == 0 and attempt == 1:
            raise distributed.comm.core.CommClosedError("worker lost")
        return real(args)

    monkeypatch.setattr(playtest, "_play_chunk", flaky)
    game = CommonCarrierGame()
    remote = run_playtest(game, 40, seed=3, scheduler=scheduler)
    monkeypatch.setattr(playtest, "_play_chunk", real)
    local = run_playtest(game, 40, seed=3)
    attempts = sorted(p.name for p in marks.iterdir())
    assert "batch-0-2" in attempts and not any(name.endswith("-2") for name in attempts if name != "batch-0-2")
    assert without_timing(remote) == without_timing(local)
    assert remote["games"] == 40


def test_an_unreachable_scheduler_is_one_error(monkeypatch):
    from cardgen import playtest

    monkeypatch.setattr(playtest, "CLUSTER_TIMEOUT", "1s")
    with pytest.raises(CardgenError, match="cannot reach the Dask scheduler"):
        run_playtest(CommonCarrierGame(), 2, seed=1, scheduler="tcp://127.0.0.1:9")
