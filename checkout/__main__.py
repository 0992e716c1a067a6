"""`python -m checkout` runs the `checkout` command."""

from .cli import main

main(prog_name="checkout")
