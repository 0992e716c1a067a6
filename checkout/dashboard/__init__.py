"""The merchant console: sign-up (sandbox), login, and the overview of one merchant's account."""
