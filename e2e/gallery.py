"""The screenshot gallery in docs/: `python3 -m e2e.gallery <artifacts-dir>` picks the pages, shrinks them, writes gallery.md."""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "gallery"
PAGE = ROOT / "docs" / "gallery.md"
# The pages shown, in the order a reader meets them, with what each shows.
CHOSEN = {
    "checkout-methods": "Hosted checkout: the method picker",
    "checkout-pix": "Hosted checkout: Pix, the customer's data pre-filled",
    "checkout-card": "Hosted checkout: card",
    "pix-payment": "Pix payment: QR, copy-and-paste code, time left",
    "pix-paid": "Pix payment, paid",
    "boleto-payment": "Boleto: the typed line and the due date",
    "deposit-payment": "DepositExpress: the account to pay into",
    "spei-payment": "SPEI (Mexico, in Spanish): the CLABE",
    "oxxo-payment": "OXXO (Mexico): the code to show at the till",
    "pix-authorization": "Pix Automático authorization",
    "card-consent": "Card-on-file consent",
    "card-entry": "Card entry (for the merchant's iframe)",
    "payout-checkout": "Payout checkout (Brazil)",
    "payout-checkout-es": "Payout checkout (Mexico, in Spanish)",
    "error-page": "A link that is not valid",
}
# The payment journeys' states (e2e/test_every_method.py), on a desktop and a phone.
JOURNEYS = {
    "checkout-card-declined": "Hosted checkout: a declined card, the form ready for another and the other methods",
    "pse-payment": "PSE (Colombia): the steps before the bank",
    "pse-bank": "PSE's sandbox page: the bank chosen, approve, decline or go back",
    "handoff-came-back": "Back from the bank without paying: the page still waits",
    "handoff-refused": "Declined at the bank: the result",
    "wallet-payment": "A wallet opened by its app (PicPay), with the sandbox's wallet page",
    "codi-payment": "CoDi (Mexico): its steps and numeric reference",
    "lottery-payment": "Lotérica slip (Brazil)",
    "cash-payment": "Cash voucher (Mexico)",
    "pagofacil-payment": "Pago Fácil voucher (Argentina)",
    "bank-transfer-payment": "Bank details (Argentina)",
    "qrph-payment": "QR Ph (the Philippines)",
}
# The dashboard's screens (e2e/test_dashboard.py), on a desktop and a phone.
DASHBOARD = {
    "dashboard-signup": "Sign-up (sandbox)",
    "dashboard-credentials": "The credentials, shown once",
    "dashboard-overview": "Overview: balances, balance chart, recent activity, sandbox clock",
    "dashboard-overview-dark": "Overview in the dark scheme",
    "dashboard-payments": "Payments: filters, search, keyset pages",
    "dashboard-payment": "A payment: summary, refund, history, refunds, callbacks sent again",
    "dashboard-payouts": "Payouts",
    "dashboard-payout": "A payout: amounts as /payout/detail answers them, payee, history",
    "dashboard-vaults": "Vaults: cards on file and Pix Automático",
    "dashboard-developers": "Developers: the keys after the password again",
    "dashboard-settings": "Settings: a new logo in both previews of the payment page",
    "dashboard-not-yours": "Another merchant's payment: not found",
    "dashboard-login-failed": "A wrong password",
}
# Context folder -> (column title, width in the gallery, width of the original kept from the left).
COLUMNS = {
    "desktop": ("Desktop", 560, None),
    "mobile": ("Phone", 260, None),
    "desktop-frame": ("In the shop's iframe", 300, 440),  # the shop page: its frame is the left 440 px
}
COLOURS = 96  # a palette PNG of this many colours keeps the whole gallery under 3 MB


def shrink(source: Path, target: Path, width: int, crop: int | None) -> tuple[int, int]:
    with Image.open(source) as image:
        picture = image.convert("RGB")
    if crop and picture.width > crop:
        picture = picture.crop((0, 0, crop, picture.height))
    height = round(picture.height * width / picture.width)
    picture = picture.resize((width, height), Image.Resampling.LANCZOS).quantize(COLOURS, dither=Image.Dither.NONE)
    target.parent.mkdir(parents=True, exist_ok=True)
    picture.save(target, format="PNG", optimize=True)
    return width, height


def build(artifacts: Path) -> list[str]:
    """Copy the chosen screenshots into docs/gallery/ and write docs/gallery.md; answer what was missing."""
    for old in OUT.glob("*.png"):
        old.unlink()
    missing: list[str] = []
    header = "| page | " + " | ".join(title for title, _, _ in COLUMNS.values()) + " |"
    rows = [header, "|---|" + "---|" * len(COLUMNS)]
    missing += _rows(artifacts, CHOSEN, COLUMNS, rows)
    dashboard_columns = {context: COLUMNS[context] for context in ("desktop", "mobile")}
    journeys = ["| state | Desktop | Phone |", "|---|---|---|"]
    missing += _rows(artifacts, JOURNEYS, dashboard_columns, journeys)
    dashboard = ["| screen | Desktop | Phone |", "|---|---|---|"]
    missing += _rows(artifacts, DASHBOARD, dashboard_columns, dashboard)
    PAGE.write_text(
        "# Gallery\n\n"
        "Every hosted page as a customer first sees it: on a desktop browser (1280×900), on a phone (Pixel 7, the\n"
        "H5 view) and inside a merchant's cross-site iframe (420 px wide); then the merchant dashboard. The pictures\n"
        "come from the end-to-end suite (`e2e/test_pages.py::test_screenshots_of_every_page`,\n"
        "`e2e/test_every_method.py` and `e2e/test_dashboard.py`, which save them under\n"
        "`e2e-artifacts/<run>/<context>/<name>.png`) and are regenerated with\n\n"
        "```\nCHECKOUT_E2E_ARTIFACTS=e2e-artifacts/gallery python3 -m pytest e2e/test_pages.py -k screenshots\n"
        "CHECKOUT_E2E_ARTIFACTS=e2e-artifacts/gallery python3 -m pytest e2e/test_every_method.py\n"
        "CHECKOUT_E2E_ARTIFACTS=e2e-artifacts/gallery python3 -m pytest e2e/test_dashboard.py\n"
        "python3 -m e2e.gallery e2e-artifacts/gallery\n```\n\n"
        "They are shrunk to a small palette to keep the repository light; the artifacts hold the full-size ones.\n\n"
        "## Hosted pages\n\n"
        + "\n".join(rows)
        + "\n\n## Payment journeys\n\n"
        + "\n".join(journeys)
        + "\n\n## Dashboard\n\n"
        + "\n".join(dashboard)
        + "\n",
        encoding="utf-8",
    )
    return missing


def _rows(artifacts: Path, chosen: dict[str, str], columns: dict, rows: list[str]) -> list[str]:
    """One table row per chosen screenshot (appended to `rows`); answers the pictures that were missing."""
    missing: list[str] = []
    for name, caption in chosen.items():
        cells = []
        for context, (title, width, crop) in columns.items():
            source = artifacts / context / f"{name}.png"
            if not source.exists():
                missing.append(f"{context}/{name}")
                cells.append("")
                continue
            file = f"{name}-{context}.png"
            shrink(source, OUT / file, width, crop)
            cells.append(f'<img src="gallery/{file}" width="{width}" alt="{caption}, {title.lower()}">')
        rows.append(f"| {caption} | " + " | ".join(cells) + " |")
    return missing


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not Path(argv[0]).is_dir():
        print("usage: python3 -m e2e.gallery <artifacts-dir>", file=sys.stderr)
        return 2
    missing = build(Path(argv[0]))
    total = sum(file.stat().st_size for file in OUT.glob("*.png"))
    print(f"{PAGE.relative_to(ROOT)}: {len(list(OUT.glob('*.png')))} pictures, {total // 1024} KB")
    if missing:
        print("missing: " + ", ".join(missing), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
