"""The `checkout` command: the group, and each module's commands joined to it."""

from __future__ import annotations

import click

from . import admin, inspection, listen, serve


@click.group()
def main():
    """checkout: self-hosted payment service (payin gateway, payout platform, hosted pages)."""


for command in (
    serve.serve,
    admin.docs,
    serve.worker_command,
    admin.db_group,
    admin.merchants,
    inspection.deliveries,
    admin.users_group,
    inspection.clock_group,
    listen.listen,
):
    main.add_command(command)
