"""The phases of a live run's child process: a state table with no I/O, driven by plain events."""

from __future__ import annotations

import signal
from dataclasses import dataclass
from enum import Enum
from typing import Final

from linewise.settings.defaults import EXIT_TIMEOUT

__all__ = [
    "TRANSITIONS",
    "Action",
    "ChildMachine",
    "ChildStateError",
    "DrainOver",
    "Event",
    "Exited",
    "Forward",
    "GraceOver",
    "Interrupt",
    "Phase",
    "PipesClosed",
    "Say",
    "Signal",
    "StopReading",
    "TimedOut",
    "exit_code",
]

#: After SIGKILL: how long pipes held by processes outside the group are still read.
ABANDON_AFTER: Final = 2.0


class Phase(Enum):
    """Where the child is, as far as stopping it goes."""

    RUNNING = "running"  # nothing asked of it yet
    INTERRUPTED = "interrupted"  # Ctrl-C passed on once; it may stop by itself
    STOPPING = "stopping"  # SIGTERM (or a forwarded signal) sent; SIGKILL when the grace ends
    KILLED = "killed"  # SIGKILL sent; its pipes are read a little longer
    DRAINING = "draining"  # it exited; processes it left still hold its pipes
    DONE = "done"  # it exited and nothing of its output is read any more


# -- events: what happened (to the child, to linewise, or the clock) ---------------------


@dataclass(frozen=True, slots=True)
class Interrupt:
    """linewise received Ctrl-C (SIGINT)."""


@dataclass(frozen=True, slots=True)
class Forward:
    """linewise received another signal to pass on (SIGTERM, SIGHUP)."""

    signum: int


@dataclass(frozen=True, slots=True)
class TimedOut:
    """The run's timeout passed."""


@dataclass(frozen=True, slots=True)
class GraceOver:
    """The grace period after SIGTERM passed."""


@dataclass(frozen=True, slots=True)
class Exited:
    """The child process ended with this status (negative: killed by that signal)."""

    returncode: int


@dataclass(frozen=True, slots=True)
class PipesClosed:
    """Every pipe of the child reached its end."""


@dataclass(frozen=True, slots=True)
class DrainOver:
    """The time to read pipes held by processes the child left behind passed."""


Event = Interrupt | Forward | TimedOut | GraceOver | Exited | PipesClosed | DrainOver


# -- actions: what the driver must do ----------------------------------------------------


@dataclass(frozen=True, slots=True)
class Signal:
    """Send this signal to the child's whole process group."""

    signum: int


@dataclass(frozen=True, slots=True)
class Say:
    """Tell the user (a system entry in the transcript)."""

    text: str


@dataclass(frozen=True, slots=True)
class StopReading:
    """Stop reading the child's pipes: pass on what was held back, as if they had ended."""


Action = Signal | Say | StopReading

_P = Phase
#: Every allowed (phase, event) and the phases it may lead to; anything else is a ChildStateError.
TRANSITIONS: Final[dict[Phase, dict[type[Event], frozenset[Phase]]]] = {
    _P.RUNNING: {
        Interrupt: frozenset({_P.INTERRUPTED}),
        Forward: frozenset({_P.STOPPING}),
        TimedOut: frozenset({_P.STOPPING}),
        Exited: frozenset({_P.DRAINING, _P.DONE}),
        PipesClosed: frozenset({_P.RUNNING}),
    },
    _P.INTERRUPTED: {
        Interrupt: frozenset({_P.STOPPING}),
        Forward: frozenset({_P.STOPPING}),
        TimedOut: frozenset({_P.STOPPING}),
        Exited: frozenset({_P.DRAINING, _P.DONE}),
        PipesClosed: frozenset({_P.INTERRUPTED}),
    },
    _P.STOPPING: {
        Interrupt: frozenset({_P.KILLED}),
        Forward: frozenset({_P.STOPPING}),
        TimedOut: frozenset({_P.STOPPING}),
        GraceOver: frozenset({_P.KILLED, _P.DONE}),
        Exited: frozenset({_P.STOPPING, _P.DONE}),
        PipesClosed: frozenset({_P.STOPPING, _P.DONE}),
    },
    _P.KILLED: {
        Interrupt: frozenset({_P.KILLED, _P.DONE}),
        Forward: frozenset({_P.KILLED, _P.DONE}),
        Exited: frozenset({_P.KILLED, _P.DONE}),
        PipesClosed: frozenset({_P.KILLED, _P.DONE}),
        DrainOver: frozenset({_P.KILLED, _P.DONE}),
    },
    _P.DRAINING: {
        Interrupt: frozenset({_P.DONE}),
        Forward: frozenset({_P.DONE}),
        PipesClosed: frozenset({_P.DONE}),
        DrainOver: frozenset({_P.DONE}),
    },
    _P.DONE: {
        # A signal may arrive at any moment, even once everything is over.
        Interrupt: frozenset({_P.DONE}),
        Forward: frozenset({_P.DONE}),
    },
}


class ChildStateError(RuntimeError):
    """An event the current phase does not allow (a bug in the driver, never the agent's fault)."""


def _seconds(value: float) -> str:
    return f"{value:g}s"


class ChildMachine:
    """The phases of one child and its deadlines; :meth:`handle` turns events into actions.

    No clock and no process: the driver passes ``now`` in, asks :meth:`due`
    which timed events have come, and carries out the actions it gets back.
    """

    def __init__(self, *, started: float, timeout: float | None, grace: float) -> None:
        self.phase = Phase.RUNNING
        self.timeout = timeout
        self.grace = grace
        self.timeout_at = started + timeout if timeout else None
        self._timeout_end = self.timeout_at  # kept once the timeout no longer applies
        self.kill_at: float | None = None
        self.drain_at: float | None = None
        self.returncode: int | None = None
        self.pipes_open = True
        self.timed_out = False
        self.interrupted = False
        self.killed = False
        self.interrupts = 0

    # -- time ------------------------------------------------------------------

    def next_deadline(self) -> float | None:
        """When :meth:`due` next has something to report."""
        pending = [d for d in (self.timeout_at, self.kill_at, self.drain_at) if d is not None]
        return min(pending, default=None)

    def due(self, now: float) -> list[Event]:
        """The timed events whose moment has come (each reported once)."""
        events: list[Event] = []
        if self.timeout_at is not None and now >= self.timeout_at:
            self.timeout_at = None
            events.append(TimedOut())
        if self.kill_at is not None and now >= self.kill_at:
            self.kill_at = None
            events.append(GraceOver())
        if self.drain_at is not None and now >= self.drain_at:
            self.drain_at = None
            events.append(DrainOver())
        return events

    # -- events ----------------------------------------------------------------

    def handle(self, event: Event, now: float) -> list[Action]:
        """Apply one event: the phase moves as the table allows; the actions to carry out."""
        allowed = TRANSITIONS[self.phase].get(type(event))
        if allowed is None:
            raise ChildStateError(
                f"{type(event).__name__} cannot happen while the child is {self.phase.value}"
            )
        actions, phase = self._apply(event, now)
        assert phase in allowed, (self.phase, event, phase)
        self.phase = phase
        if phase is Phase.DONE:
            self.timeout_at = self.kill_at = self.drain_at = None
        return actions

    def _apply(self, event: Event, now: float) -> tuple[list[Action], Phase]:
        match event:
            case Interrupt():
                return self._interrupt(now)
            case Forward(signum):
                return self._forward(signum, now)
            case TimedOut():
                self.timed_out = True
                if self.phase is Phase.STOPPING:
                    return [], Phase.STOPPING  # already on its way out
                return self._terminate(now, f"timed out after {_seconds(self.timeout or 0)}")
            case GraceOver():
                if self.returncode is not None and not self.pipes_open:
                    return [], Phase.DONE
                return self._kill(now, f"still running {_seconds(self.grace)} after SIGTERM")
            case Exited(returncode):
                self.returncode = returncode
                self.timeout_at = None  # what is left is bounded by the drain
                return self._exited(now)
            case PipesClosed():
                self.pipes_open = False
                return [], self._settled()
            case DrainOver():
                return self._stop_reading()

    def _settled(self) -> Phase:
        """DONE once the child has exited and its pipes have ended; the phase as it is otherwise."""
        if self.returncode is not None and not self.pipes_open:
            return Phase.DONE
        return self.phase

    def _interrupt(self, now: float) -> tuple[list[Action], Phase]:
        self.interrupted = True
        self.interrupts += 1
        match self.phase:
            case Phase.RUNNING:
                text = "Ctrl-C: sent SIGINT to the agent (Ctrl-C again stops it)"
                return [Signal(signal.SIGINT), Say(text)], Phase.INTERRUPTED
            case Phase.INTERRUPTED:
                return self._terminate(now, "Ctrl-C again")
            case Phase.STOPPING:
                why = "Ctrl-C a third time" if self.interrupts == 3 else "Ctrl-C while stopping"
                return self._kill(now, why)
            case Phase.KILLED | Phase.DRAINING:
                return self._give_up()
            case _:
                return [], self.phase

    def _forward(self, signum: int, now: float) -> tuple[list[Action], Phase]:
        self.interrupted = True
        if self.phase in (Phase.KILLED, Phase.DRAINING):
            return self._give_up()
        if self.phase is Phase.DONE:
            return [], Phase.DONE
        name = signal.Signals(signum).name
        actions: list[Action] = [Signal(signum), Say(f"received {name}: forwarded it to the agent")]
        if self.kill_at is None:
            self.kill_at = now + self.grace
        return actions, Phase.STOPPING

    def _give_up(self) -> tuple[list[Action], Phase]:
        """A signal once the agent is gone or killed: stop waiting for what holds its output."""
        if self.returncode is None:
            return [], self.phase
        return self._stop_reading()

    def _terminate(self, now: float, why: str) -> tuple[list[Action], Phase]:
        self.kill_at = now + self.grace
        text = (
            f"{why}: sent SIGTERM to the agent's process group; "
            f"SIGKILL in {_seconds(self.grace)} if it is still running"
        )
        return [Signal(signal.SIGTERM), Say(text)], Phase.STOPPING

    def _kill(self, now: float, why: str) -> tuple[list[Action], Phase]:
        self.killed = True
        self.kill_at = self.timeout_at = None  # nothing is left to escalate to
        self.drain_at = now + ABANDON_AFTER
        text = f"{why}: sent SIGKILL to the agent's process group"
        return [Signal(signal.SIGKILL), Say(text)], Phase.KILLED

    def _exited(self, now: float) -> tuple[list[Action], Phase]:
        if not self.pipes_open:
            return [], Phase.DONE
        if self.phase in (Phase.RUNNING, Phase.INTERRUPTED):
            # Give processes the agent left behind a moment to finish writing,
            # but never past the run's timeout.
            drain = max(self.grace, 1.0)
            if self._timeout_end is not None:
                drain = min(drain, max(self._timeout_end - now, 0.0))
            self.drain_at = now + drain
            return [], Phase.DRAINING
        return [], self.phase  # STOPPING or KILLED: their own deadline ends the wait

    def _stop_reading(self) -> tuple[list[Action], Phase]:
        if not self.pipes_open:
            return [], self._settled()
        self.pipes_open = False
        self.drain_at = None
        if self.killed:
            text = (
                "processes outside the agent's process group still hold its output open; "
                "stopped reading it"
            )
            actions: list[Action] = [StopReading(), Say(text)]
        else:
            # What the agent left in its group is stopped, as a timeout would stop it.
            text = (
                "the agent exited, but processes it left running still hold its output "
                "open; stopped reading it and sent SIGTERM to its process group"
            )
            actions = [Signal(signal.SIGTERM), StopReading(), Say(text)]
        return actions, self._settled()


def exit_code(returncode: int, *, timed_out: bool) -> int:
    """What ``linewise run`` exits with: 124 on timeout, 128 + N for signal N, or the child's."""
    if timed_out:
        return EXIT_TIMEOUT
    return 128 - returncode if returncode < 0 else returncode
