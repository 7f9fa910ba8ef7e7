"""The phases of a live run's child: every phase against every event, with plain values."""

from __future__ import annotations

import signal
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st
from linewise.run.child import (
    ABANDON_AFTER,
    TRANSITIONS,
    Action,
    ChildMachine,
    ChildStateError,
    DrainOver,
    Event,
    Exited,
    Forward,
    GraceOver,
    Interrupt,
    Phase,
    PipesClosed,
    Say,
    Signal,
    StopReading,
    TimedOut,
    exit_code,
)

GRACE = 5.0
TIMEOUT = 60.0


def machine(*events: Event, timeout: float | None = TIMEOUT) -> ChildMachine:
    """A machine started at 0 that went through ``events`` (at 1, 2, 3 ... seconds)."""
    child = ChildMachine(started=0.0, timeout=timeout, grace=GRACE)
    for moment, event in enumerate(events, start=1):
        child.handle(event, float(moment))
    return child


#: One way into every phase, and into the phases again with the facts that change them.
SETUPS: dict[str, tuple[Event, ...]] = {
    "running": (),
    "running, pipes closed": (PipesClosed(),),
    "interrupted": (Interrupt(),),
    "interrupted, pipes closed": (Interrupt(), PipesClosed()),
    "stopping (timeout)": (TimedOut(),),
    "stopping (Ctrl-C twice)": (Interrupt(), Interrupt()),
    "stopping (SIGTERM forwarded)": (Forward(signal.SIGTERM),),
    "stopping, exited, pipes open": (TimedOut(), Exited(0)),
    "stopping, pipes closed": (TimedOut(), PipesClosed()),
    "killed": (TimedOut(), GraceOver()),
    "killed, exited, pipes open": (TimedOut(), GraceOver(), Exited(-9)),
    "killed, pipes closed": (TimedOut(), GraceOver(), PipesClosed()),
    "draining": (Exited(0),),
    "done": (PipesClosed(), Exited(0)),
    "done after draining": (Exited(0), DrainOver()),
}
PHASE_OF = {
    "running": Phase.RUNNING,
    "interrupted": Phase.INTERRUPTED,
    "stopping": Phase.STOPPING,
    "killed": Phase.KILLED,
    "draining": Phase.DRAINING,
    "done": Phase.DONE,
}
EVENTS: list[Event] = [
    Interrupt(),
    Forward(signal.SIGTERM),
    Forward(signal.SIGHUP),
    TimedOut(),
    GraceOver(),
    Exited(0),
    Exited(3),
    Exited(-signal.SIGKILL),
    PipesClosed(),
    DrainOver(),
]


def test_the_setups_reach_every_phase() -> None:
    for name, events in SETUPS.items():
        assert machine(*events).phase is PHASE_OF[name.split(" ")[0].rstrip(",")]
    assert {machine(*events).phase for events in SETUPS.values()} == set(Phase)


def test_the_table_names_every_phase_and_only_known_events() -> None:
    assert set(TRANSITIONS) == set(Phase)
    kinds = {type(event) for event in EVENTS}
    for allowed in TRANSITIONS.values():
        assert set(allowed) <= kinds


@pytest.mark.parametrize("setup", list(SETUPS))
@pytest.mark.parametrize("event", EVENTS, ids=repr)
def test_every_phase_against_every_event(setup: str, event: Event) -> None:
    child = machine(*SETUPS[setup])
    before = child.phase
    allowed = TRANSITIONS[before].get(type(event))
    if allowed is None:
        with pytest.raises(ChildStateError, match=f"{type(event).__name__} cannot happen while"):
            child.handle(event, 100.0)
        assert child.phase is before  # a refused event changes nothing
        return
    actions = child.handle(event, 100.0)
    assert child.phase in allowed
    assert all(isinstance(action, Signal | Say | StopReading) for action in actions)
    if child.phase is Phase.DONE:
        assert child.next_deadline() is None  # nothing is left to wait for


# -- what each transition does ------------------------------------------------------------


def acts(child: ChildMachine, event: Event, now: float = 10.0) -> list[Action]:
    return child.handle(event, now)


def test_ctrl_c_once_asks_twice_terminates_three_times_kills() -> None:
    child = machine()
    first = acts(child, Interrupt())
    assert first[0] == Signal(signal.SIGINT) and child.phase is Phase.INTERRUPTED
    assert child.interrupted and child.next_deadline() == TIMEOUT
    second = acts(child, Interrupt(), now=11.0)
    assert second[0] == Signal(signal.SIGTERM) and child.phase is Phase.STOPPING
    assert isinstance(second[1], Say) and second[1].text.startswith("Ctrl-C again: sent SIGTERM")
    assert child.kill_at == 11.0 + GRACE
    third = acts(child, Interrupt(), now=12.0)
    assert third == [
        Signal(signal.SIGKILL),
        Say("Ctrl-C a third time: sent SIGKILL to the agent's process group"),
    ]
    assert child.phase is Phase.KILLED and child.killed and not child.timed_out


def test_a_timeout_terminates_then_kills_after_the_grace_period() -> None:
    child = machine()
    assert child.next_deadline() == TIMEOUT
    assert child.due(TIMEOUT - 0.1) == []
    (event,) = child.due(TIMEOUT)
    assert event == TimedOut()
    assert acts(child, event, TIMEOUT) == [
        Signal(signal.SIGTERM),
        Say(
            "timed out after 60s: sent SIGTERM to the agent's process group; "
            "SIGKILL in 5s if it is still running"
        ),
    ]
    assert child.due(TIMEOUT) == []  # reported once
    assert child.next_deadline() == TIMEOUT + GRACE
    (event,) = child.due(TIMEOUT + GRACE)
    assert acts(child, event) == [
        Signal(signal.SIGKILL),
        Say("still running 5s after SIGTERM: sent SIGKILL to the agent's process group"),
    ]
    assert (child.phase, child.timed_out, child.killed) == (Phase.KILLED, True, True)
    assert child.next_deadline() == 10.0 + ABANDON_AFTER


def test_an_agent_that_stops_within_the_grace_period_is_not_killed() -> None:
    child = machine(TimedOut(), PipesClosed())
    assert acts(child, Exited(0)) == []
    assert child.phase is Phase.DONE and not child.killed and child.timed_out
    assert exit_code(0, timed_out=child.timed_out) == 124


def test_a_forwarded_signal_is_passed_on_and_escalates_after_the_grace_period() -> None:
    child = machine()
    assert acts(child, Forward(signal.SIGHUP)) == [
        Signal(signal.SIGHUP),
        Say("received SIGHUP: forwarded it to the agent"),
    ]
    assert child.phase is Phase.STOPPING and child.kill_at == 10.0 + GRACE
    assert acts(child, Forward(signal.SIGTERM), now=12.0)[0] == Signal(signal.SIGTERM)
    assert child.kill_at == 10.0 + GRACE  # the first deadline holds


def test_leftover_processes_get_a_drain_bounded_by_the_timeout_then_sigterm() -> None:
    child = machine(timeout=3.0)
    assert acts(child, Exited(0), now=1.0) == []
    assert child.phase is Phase.DRAINING
    assert child.next_deadline() == 3.0  # the timeout, not the 5 s grace
    (event,) = child.due(3.0)
    assert event == DrainOver()
    actions = acts(child, event, now=3.0)
    assert actions[:2] == [Signal(signal.SIGTERM), StopReading()]
    assert isinstance(actions[2], Say) and "sent SIGTERM to its process group" in actions[2].text
    assert child.phase is Phase.DONE and not child.timed_out


def test_without_a_timeout_leftovers_get_the_grace_period_at_least_a_second() -> None:
    child = ChildMachine(started=0.0, timeout=None, grace=0.2)
    child.handle(Exited(0), 1.0)
    assert child.next_deadline() == 2.0


def test_ctrl_c_while_draining_stops_waiting_at_once() -> None:
    child = machine(Exited(0))
    actions = acts(child, Interrupt())
    assert StopReading() in actions and child.phase is Phase.DONE


def test_after_sigkill_escaped_processes_are_read_a_little_then_left() -> None:
    child = machine(TimedOut(), GraceOver(), Exited(-9))
    (event,) = child.due(3.0 + ABANDON_AFTER)
    actions = acts(child, event)
    assert actions[0] == StopReading()
    assert Signal(signal.SIGTERM) not in actions  # the group was killed already
    assert isinstance(actions[1], Say) and "outside the agent's process group" in actions[1].text
    assert child.phase is Phase.DONE


def test_a_killed_agent_that_has_not_exited_yet_is_still_waited_for() -> None:
    child = machine(TimedOut(), GraceOver())
    acts(child, DrainOver())
    assert child.phase is Phase.KILLED and not child.pipes_open
    acts(child, Exited(-9))
    assert child.phase is Phase.DONE


def test_grace_over_with_leftovers_holding_the_pipes_kills_the_group() -> None:
    child = machine(TimedOut(), Exited(0))
    assert child.phase is Phase.STOPPING
    assert acts(child, GraceOver())[0] == Signal(signal.SIGKILL)
    assert child.phase is Phase.KILLED


@pytest.mark.parametrize(
    ("returncode", "timed_out", "expected"),
    [
        (0, False, 0),
        (3, False, 3),
        (255, False, 255),
        (-15, False, 143),
        (-9, False, 137),
        (0, True, 124),
        (-9, True, 124),
    ],
)
def test_exit_code(returncode: int, timed_out: bool, expected: int) -> None:
    assert exit_code(returncode, timed_out=timed_out) == expected


# -- the driver's contract: timed events never surprise the machine ---------------------------

_OUTSIDE: list[Callable[[ChildMachine], Event | None]] = [
    lambda child: Interrupt(),
    lambda child: Forward(signal.SIGTERM),
    lambda child: Exited(-9 if child.killed else 0) if child.returncode is None else None,
    lambda child: PipesClosed() if child.pipes_open else None,
]


@given(
    steps=st.lists(
        st.tuples(st.integers(0, len(_OUTSIDE) - 1), st.floats(0, 20)),
        max_size=30,
    ),
    timeout=st.one_of(st.none(), st.floats(0.1, 30)),
)
def test_any_run_of_signals_exits_and_time_only_meets_allowed_events(
    steps: list[tuple[int, float]], timeout: float | None
) -> None:
    child = ChildMachine(started=0.0, timeout=timeout, grace=GRACE)
    now = 0.0
    for which, pause in steps:
        now += pause
        for event in child.due(now):
            child.handle(event, now)  # a ChildStateError here would fail the test
        outside = _OUTSIDE[which](child)
        if outside is not None:
            child.handle(outside, now)
    # Once the agent has exited and its pipes have ended, the run is done.
    if child.returncode is None:
        child.handle(Exited(0), now)
    if child.pipes_open:
        child.handle(PipesClosed(), now)
    assert child.phase is Phase.DONE and child.next_deadline() is None
