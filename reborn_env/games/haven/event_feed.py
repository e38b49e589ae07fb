"""Each character's event feed (HV-API-8, HV-SEL-3), kept up to date a few events at a time.

A seat is shown, as plain dicts, the events of the log since its previous step, without the other
character's selection events until the next ``REVEAL`` (and without the private ones for good).
Those withheld at its step stay pending after it. The feed is what a rule of that kind gives when
worked out from the whole log at every step; it is kept incrementally because it is read for
every seat after every step: new events are filtered once per seat, and only a ``REVEAL`` that
releases withheld events makes a seat's feed be worked out again.
"""

from __future__ import annotations

from typing import Any

from .rules.prompts import Event


class EventFeed:
    """The HV-API-8 feed of every seat over one game's event log (which only ever grows)."""

    def __init__(self, log: list[Event], seats: int) -> None:
        self._log = log
        self._dicts: list[dict[str, Any]] = []  # the log as dicts, converted once
        self._last_reveal = -1  # where the last REVEAL, which releases withheld events, is
        self._last_secret = -1  # where the last event with a secret_of is (none: -1)
        self._cursor = [0] * seats  # per seat, the first event not yet handed over at its step
        self._held: list[list[int]] = [[] for _ in range(seats)]  # withheld before the cursor
        self._shown: list[list[dict[str, Any]]] = [[] for _ in range(seats)]
        self._upto = [0] * seats  # the log events ``_shown`` has looked at
        self._waiting = [False] * seats  # whether a looked-at event waits for a REVEAL
        self._built_reveal = [-1] * seats  # the last REVEAL when ``_shown`` was worked out

    def shown(self, seat: int) -> list[dict[str, Any]]:
        """What ``seat`` may see since its previous step, oldest first: a new list."""
        self._refresh(seat)
        return list(self._shown[seat])

    def still_held(self, seat: int) -> list[int]:
        """The events ``seat`` was not shown so far (withheld): they stay pending after its step,
        while everything it was shown, and the private events it may never see, are spent."""
        self._sync()
        if not self._waiting[seat] and self._last_secret < self._upto[seat]:
            return []  # nothing withheld so far, and no secret among the events not looked at
        log = self._log
        return [i for i in self._pending(seat) if not self._visible(seat, i) and not log[i].private]

    def stepped(self, seat: int, held: list[int], before: int) -> None:
        """``seat`` stepped: the log had ``before`` events then, and ``held`` were withheld."""
        self._held[seat], self._cursor[seat] = held, before
        self._shown[seat], self._upto[seat] = [], before
        self._waiting[seat], self._built_reveal[seat] = bool(held), self._last_reveal

    def _refresh(self, seat: int) -> None:
        """Bring the seat's feed up to the end of the log."""
        self._sync()
        if self._waiting[seat] and self._last_reveal != self._built_reveal[seat]:
            self._rebuild(seat)
        else:
            self._extend(seat)

    def _sync(self) -> None:
        """Convert new log lines to dicts once and note the last REVEAL and secret."""
        log, dicts = self._log, self._dicts
        for index in range(len(dicts), len(log)):
            event = log[index]
            dicts.append({"type": event.type, **event.data})
            if event.type == "REVEAL":
                self._last_reveal = index
            if event.secret_of is not None:
                self._last_secret = index

    def _extend(self, seat: int) -> None:
        """Add the visible events the seat's feed has not looked at yet."""
        start, end = self._upto[seat], len(self._dicts)
        if start == end:
            return
        shown = self._shown[seat]
        if self._last_secret < start:  # no secret among them: all visible
            shown.extend(self._dicts[start:end])
        else:
            log, dicts = self._log, self._dicts
            for i in range(start, end):
                if self._visible(seat, i):
                    shown.append(dicts[i])
                elif not log[i].private:
                    self._waiting[seat] = True
        self._upto[seat] = end

    def _rebuild(self, seat: int) -> None:
        """Work the seat's feed out from its pending events (a REVEAL released some)."""
        log, dicts = self._log, self._dicts
        shown, waiting = [], False
        for i in self._pending(seat):
            if self._visible(seat, i):
                shown.append(dicts[i])
            elif not log[i].private:
                waiting = True
        self._shown[seat], self._upto[seat] = shown, len(dicts)
        self._waiting[seat], self._built_reveal[seat] = waiting, self._last_reveal

    def _visible(self, me: int, index: int) -> bool:
        """HV-API-8 / HV-SEL-3: another character's selection events wait for a later REVEAL;
        private ones (the second pick under ``reveal_second_card_at_turn``, 16.8) are never
        shown: a public REVEAL names that card when its owner's turn starts."""
        event = self._log[index]
        if event.secret_of is None or event.secret_of == me:
            return True
        return not event.private and self._last_reveal > index

    def _pending(self, seat: int) -> list[int]:
        """Indices of the events not yet handed to ``seat`` (withheld ones first, in order)."""
        return self._held[seat] + list(range(self._cursor[seat], len(self._dicts)))
