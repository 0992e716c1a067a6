"""Sandbox controls: the clock, and the parts customers and banks play (paying, approving)."""
