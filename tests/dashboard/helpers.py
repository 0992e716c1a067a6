"""What the dashboard tests share: a client that reads each form's CSRF token, a merchant's dashboard user."""

from __future__ import annotations

import re

from sqlalchemy import func, select

from checkout.dashboard import users
from checkout.dashboard.models import LoginAttempt
from checkout.db import db
from checkout.merchants.service import find_by_app_id

PASSWORD = "correct horse battery"


def csrf(html: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)


class Browser:
    def __init__(self, client, address: str = "198.51.100.7"):
        self.client, self.address = client, address

    def get(self, path: str, **kwargs):
        return self.client.get(path, environ_base={"REMOTE_ADDR": self.address}, **kwargs)

    def submit(self, path: str, data: dict, *, form_at: str | None = None):
        """POST `data` with the CSRF token of the form shown at `form_at` (default: the same path)."""
        token = csrf(self.get(form_at or path).get_data(as_text=True))
        return self.client.post(path, data={"csrf_token": token, **data}, environ_base={"REMOTE_ADDR": self.address})

    def sign_up(self, email: str = "ana@shop.example", shop_name: str = "Loja da Ana", password: str = PASSWORD):
        return self.submit("/dashboard/signup", {"email": email, "password": password, "shop_name": shop_name})

    def log_in(self, email: str, password: str = PASSWORD):
        return self.submit("/dashboard/login", {"email": email, "password": password})


def add_user(app, credentials: dict, email: str) -> None:
    with app.app_context():
        merchant = find_by_app_id(db.session, credentials["app_id"])
        users.create(db.session, merchant=merchant, email=email, password=PASSWORD)
        db.session.commit()


def failures(app, email: str = "a@shop.example") -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(LoginAttempt).where(LoginAttempt.email == email))
