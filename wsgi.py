"""WSGI entry point for production servers."""

from checkout import create_app

app = create_app()
