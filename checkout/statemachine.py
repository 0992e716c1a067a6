"""Transition tables: each state machine declares its legal moves once, and every change is checked."""
from __future__ import annotations


class IllegalTransition(RuntimeError):
    pass


class StateMachine:
    def __init__(self, name: str, transitions: dict[str | None, set[str]]):
        self.name = name
        self.transitions = transitions  # None is the state before creation

    def check(self, current: str | None, new: str) -> None:
        if new not in self.transitions.get(current, set()):
            raise IllegalTransition(f"{self.name}: {current or '(new)'} -> {new} is not allowed")

    def can(self, current: str | None, new: str) -> bool:
        return new in self.transitions.get(current, set())
