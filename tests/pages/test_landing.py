"""The landing page leads to the dashboard: its address, and sign-up while in sandbox mode."""

BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


def test_landing_links_the_dashboard_and_its_sign_up(app, client, monkeypatch):
    monkeypatch.setitem(app.config, "PUBLIC_URL", "https://pay.example")
    html = client.get("/", headers={"Accept": BROWSER}).get_data(as_text=True)
    assert '<a class="button secondary" href="/dashboard">Open the dashboard</a>' in html
    assert '<a href="/dashboard"><code>https://pay.example/dashboard</code></a>' in html
    assert '<a href="/dashboard/signup">Sign up</a>' in html


def test_landing_out_of_sandbox_links_the_dashboard_but_no_sign_up(app, client, monkeypatch):
    monkeypatch.setitem(app.config, "SANDBOX", False)
    html = client.get("/", headers={"Accept": BROWSER}).get_data(as_text=True)
    assert "Open the dashboard" in html and "/dashboard/signup" not in html
