"""The demo shop's notify URL: a body it cannot read is answered 400, never a server error."""

import pytest

from checkout.demo import setup


@pytest.mark.parametrize(
    "body",
    [b"{not json", b"[1, 2]", b'"text"', b'{"a": ' + b"[" * 5000 + b"]" * 5000 + b"}"],
    ids=["broken", "array", "string", "5000-levels"],
)
def test_the_notify_url_refuses_a_body_it_cannot_read(app, client, body):
    setup.provision(app, "http://127.0.0.1:8000", "http://localhost:8000/demo")
    answer = client.post("/demo/notify", data=body, content_type="application/json", headers={"Authorization": "x"})
    assert (answer.status_code, answer.get_data(as_text=True)) == (400, "bad body")
