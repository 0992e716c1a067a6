"""Payment slips as text PDFs (fpdf2): a boleto's ficha de compensação and a cash voucher, their words selectable and
searchable in the PDF's core font, their bar code drawn as vector bars, a few kilobytes each."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field

import barcode
from fpdf import FPDF

from .. import clock

A4_WIDTH, MARGIN = 210.0, 15.0  # millimetres
WIDTH = A4_WIDTH - 2 * MARGIN
# A boleto's ITF as FEBRABAN prints it: 103 mm long, 13 mm tall, a quiet zone either side.
ITF_LENGTH, ITF_HEIGHT = 103.0, 13.0
# Code 128 at 0.33 mm a module (a till's scanner reads it off paper or a phone's screen), 15 mm tall.
CODE128_MODULE, CODE128_HEIGHT = 0.33, 15.0


# The issuing bank's name beside its code box, as each prints it (the sandbox's boletos are Banco do Brasil's).
BANKS = {"001": "Banco do Brasil", "104": "CAIXA", "237": "Bradesco", "341": "Itaú", "033": "Santander"}


@dataclass(frozen=True)
class Ficha:
    """A boleto's ficha de compensação: what each of its boxes says."""

    bank_box: str  # "001-9"
    line: str  # the typed line, in FEBRABAN's groups
    digits: str  # the 44 digits of the bar code
    beneficiary: str
    payer: str
    due: str  # dd/mm/yyyy
    amount: str  # "R$ 120,00"
    our_number: str
    document_number: str
    document_date: str
    merchant: str
    subject: str


@dataclass(frozen=True)
class Voucher:
    """What a cash voucher says, already in the page's language."""

    title: str
    rows: list[tuple[str, str]]  # label, value: merchant, amount, reference, where, deadline...
    notes: list[str] = field(default_factory=list)
    digits: str = ""
    symbology: str = "code128"


def _sheet(title: str) -> FPDF:
    pdf = FPDF(unit="mm", format="A4")
    # Helvetica's Windows-1252 covers Portuguese and Spanish (ç, ã, ñ, ¿) and the typographic marks (·, the dashes, …).
    pdf.core_fonts_encoding = "cp1252"
    pdf.set_margins(MARGIN, MARGIN)
    pdf.set_auto_page_break(False)
    pdf.set_title(_text(title))
    pdf.set_creator("checkout")
    pdf.set_creation_date(clock.as_utc(clock.now()))  # the sandbox clock's, as every moment the service gives
    pdf.add_page()
    return pdf


def _text(value: str) -> str:
    """`value` in what the core font writes: CLDR's narrow no-break space as a no-break space, other letters
    outside Windows-1252 by their closest Latin letters (never an error on a merchant's name)."""
    value = value.replace("\u202f", "\u00a0")
    try:
        value.encode("cp1252")
    except UnicodeEncodeError:
        return "".join(
            c if _writable(c) else unicodedata.normalize("NFKD", c).encode("ascii", "ignore").decode() for c in value
        )
    return value


def _writable(char: str) -> bool:
    try:
        char.encode("cp1252")
    except UnicodeEncodeError:
        return False
    return True


def _bars(pdf: FPDF, symbology: str, digits: str, x: float, y: float, length: float | None, height: float) -> float:
    """The bar code as filled rectangles, each run of dark modules one bar; answers its length in millimetres."""
    modules = barcode.get(symbology, digits).build()[0]
    module = (length / len(modules)) if length else CODE128_MODULE
    pdf.set_fill_color(0, 0, 0)
    at = 0
    while at < len(modules):
        if modules[at] == "1":
            run = len(modules[at:]) - len(modules[at:].lstrip("1"))
            pdf.rect(x + at * module, y, run * module, height, style="F")
            at += run
        else:
            at += 1
    return len(modules) * module


def _box(pdf: FPDF, x: float, y: float, w: float, h: float, label: str, value: str, *, bold=False, right=False):
    """One box of the ficha: its small label on top, its value under it."""
    pdf.rect(x, y, w, h)
    pdf.set_xy(x + 1, y + 0.6)
    pdf.set_font("Helvetica", size=6)
    pdf.cell(w - 2, 2.6, _text(label))
    pdf.set_xy(x + 1, y + h - 5)
    pdf.set_font("Helvetica", "B" if bold else "", 9)
    pdf.cell(w - 2, 4.4, _text(value), align="R" if right else "L")


def ficha_pdf(ficha: Ficha) -> bytes:
    """One A4 page: the order it pays, then the ficha de compensação as banks print it (bank code, typed line,
    payment place and due date, beneficiary, document, our number, amount, payer) and its ITF bar code."""
    pdf = _sheet(f"Boleto {ficha.merchant}")
    pdf.set_font("Helvetica", "B", 13)
    pdf.cell(WIDTH, 7, _text(f"Boleto · {ficha.merchant}"), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", size=9)
    pdf.cell(WIDTH, 5, _text(ficha.subject), new_x="LMARGIN", new_y="NEXT")
    y, right = 40.0, 50.0  # the ficha's top; the width of its right-hand column
    left = WIDTH - right
    pdf.set_line_width(0.2)
    pdf.set_font("Helvetica", "B", 10)
    pdf.set_xy(MARGIN, y)
    pdf.cell(36, 8, _text(BANKS.get(ficha.bank_box[:3], "Banco")))
    pdf.set_font("Helvetica", "B", 13)
    pdf.set_xy(MARGIN + 36, y)
    pdf.cell(20, 8, ficha.bank_box, border="LR", align="C")
    pdf.set_font("Helvetica", "B", 10.5)
    pdf.set_xy(MARGIN + 56, y)
    pdf.cell(WIDTH - 56, 8, ficha.line, align="R")
    pdf.set_line_width(0.5)
    pdf.line(MARGIN, y + 8, MARGIN + WIDTH, y + 8)
    pdf.set_line_width(0.2)
    y += 8
    rows: list[list[tuple[float, str, str]]] = [
        [(left, "Local de pagamento", "Pagável em qualquer banco, lotérica ou app de banco até o vencimento")],
        [(left, "Beneficiário", ficha.beneficiary)],
        [
            (left * 0.22, "Data do documento", ficha.document_date),
            (left * 0.40, "Nº do documento", ficha.document_number),
            (left * 0.14, "Espécie doc.", "DM"),
            (left * 0.10, "Aceite", "N"),
            (left * 0.14, "Carteira", "17"),
        ],
        [(left * 0.3, "Espécie", "R$"), (left * 0.7, "Instruções", "Não receber após o vencimento.")],
    ]
    values = [("Vencimento", ficha.due), ("Nosso número", ficha.our_number), ("(=) Valor do documento", ficha.amount)]
    values.append(("(+) Mora / Multa", ""))
    for index, row in enumerate(rows):
        x = MARGIN
        for width, label, value in row:
            _box(pdf, x, y, width, 10, label, value)
            x += width
        label, value = values[index]
        _box(pdf, MARGIN + left, y, right, 10, label, value, bold=bool(value), right=True)
        y += 10
    pdf.rect(MARGIN, y, WIDTH, 12)
    pdf.set_xy(MARGIN + 1, y + 0.6)
    pdf.set_font("Helvetica", size=6)
    pdf.cell(30, 2.6, "Pagador")
    pdf.set_xy(MARGIN + 1, y + 4)
    pdf.set_font("Helvetica", size=9)
    pdf.cell(WIDTH - 2, 4.4, _text(ficha.payer))
    y += 12
    pdf.set_xy(MARGIN + WIDTH - 70, y + 1)
    pdf.set_font("Helvetica", size=6)
    pdf.cell(70, 3, "Autenticação mecânica - Ficha de Compensação", align="R")
    _bars(pdf, "itf", ficha.digits, MARGIN + 3, y + 6, ITF_LENGTH, ITF_HEIGHT)
    return bytes(pdf.output())


def voucher_pdf(voucher: Voucher) -> bytes:
    """One A4 page: title, the voucher's rows, the bar code with its grouped digits, the notes."""
    pdf = _sheet(voucher.title)
    pdf.set_font("Helvetica", "B", 16)
    pdf.multi_cell(WIDTH, 8, _text(voucher.title), align="L", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(3)
    for label, value in voucher.rows:
        figures = bool(value) and all(char in "0123456789 ." for char in value)  # a reference: Courier's digits
        pdf.set_font("Helvetica", size=8)
        pdf.set_text_color(90, 90, 90)
        pdf.cell(WIDTH, 4.5, _text(label), new_x="LMARGIN", new_y="NEXT")
        pdf.set_text_color(0, 0, 0)
        pdf.set_font("Courier" if figures else "Helvetica", "B", 12)
        pdf.multi_cell(WIDTH, 6, _text(value), align="L", new_x="LMARGIN", new_y="NEXT")
        pdf.ln(2)
    if voucher.digits:
        y = pdf.get_y() + 3
        if voucher.symbology == "itf":
            _bars(pdf, "itf", voucher.digits, MARGIN + 3, y, ITF_LENGTH, ITF_HEIGHT)
            y += ITF_HEIGHT
        else:
            _bars(pdf, voucher.symbology, voucher.digits, MARGIN + 3, y, None, CODE128_HEIGHT)
            y += CODE128_HEIGHT
        pdf.set_xy(MARGIN, y + 5)
    pdf.set_font("Helvetica", size=10)
    for note in voucher.notes:
        pdf.multi_cell(WIDTH, 5, _text(note), align="L", new_x="LMARGIN", new_y="NEXT")
        pdf.ln(1)
    return bytes(pdf.output())
