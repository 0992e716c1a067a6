"""The reference docs in Markdown, generated from the OpenAPI document and the error registry."""

from __future__ import annotations

from collections.abc import Iterable

from .registry import PAYIN_MESSAGES, Reason

# Tag -> the page its operations are described on; sandbox controls answer in the payin envelope.
PAGES = {
    "payin-api.md": ("Payin API", ("payin", "sandbox")),
    "payout-api.md": ("Payout API", ("payout",)),
}
_RULES = (
    ("minLength", "at least {} characters"),
    ("maxLength", "at most {} characters"),
    ("minimum", "≥ {}"),
    ("maximum", "≤ {}"),
    ("exclusiveMinimum", "> {}"),
    ("exclusiveMaximum", "< {}"),
    ("pattern", "matches `{}`"),
    ("format", "format {}"),
    ("default", "default `{}`"),
)


def _cell(text: object) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _table(header: tuple[str, ...], rows: Iterable[tuple[str, ...]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_cell(cell) for cell in row) + " |" for row in rows]
    return lines


def _resolve(doc: dict, schema: dict) -> dict:
    while "$ref" in schema:
        schema = doc["components"]["schemas"][schema["$ref"].rsplit("/", 1)[-1]]
    return schema


def _alternatives(schema: dict) -> tuple[list[dict], bool]:
    """The non-null alternatives of a schema, and whether null is one of them."""
    options = schema.get("anyOf") or schema.get("oneOf")
    if options is None:
        return [schema], False
    return [o for o in options if o.get("type") != "null"], any(o.get("type") == "null" for o in options)


def _type(doc: dict, schema: dict) -> str:
    options, nullable = _alternatives(schema)
    names = []
    for shape in options:
        option = _resolve(doc, shape)
        if "const" in option:
            names.append(f"`{option['const']}`")
        elif option.get("type") == "array":
            names.append(f"array of {_type(doc, option.get('items', {}))}")
        elif "enum" in option:
            names.append(" | ".join(f"`{value}`" for value in option["enum"]))
        else:
            names.append(option.get("type", "any"))
    return " or ".join(names + (["null"] if nullable else []))


def _rule(schema: dict) -> str:
    options, _ = _alternatives(schema)
    parts = [schema["description"]] if schema.get("description") else []
    for option in [schema, *options]:
        parts += [text.format(option[key]) for key, text in _RULES if key in option and option[key] is not None]
    return "; ".join(dict.fromkeys(parts))


def _fields(doc: dict, schema: dict, prefix: str = "") -> list[tuple[str, dict, bool]]:
    """(dotted name, schema, required) of every field, nested objects and arrays of objects flattened."""
    schema = _resolve(doc, schema)
    required = set(schema.get("required", ()))
    rows = []
    for name, field in schema.get("properties", {}).items():
        dotted = f"{prefix}{name}"
        rows.append((dotted, field, name in required))
        for shape in _alternatives(field)[0]:
            option = _resolve(doc, shape)
            if option.get("type") == "array":
                item = _resolve(doc, option.get("items", {}))
                if "properties" in item:
                    rows += _fields(doc, item, f"{dotted}[].")
            elif "properties" in option:
                rows += _fields(doc, option, f"{dotted}.")
    return rows


def _request(doc: dict, schema: dict) -> list[str]:
    rows = [(f"`{name}`", _type(doc, s), "yes" if req else "no", _rule(s)) for name, s, req in _fields(doc, schema)]
    if not rows:
        return ["No fields.", ""]
    return [*_table(("field", "type", "required", "rule"), rows), ""]


def _response(doc: dict, schema: dict, payout: bool) -> list[str]:
    """The answer's own fields: the payout `data`, or the payin fields beside code and msg."""
    if payout:
        schema = _resolve(doc, schema)["properties"]["data"]
    else:
        schema = next((part for part in schema.get("allOf", []) if "PayinSuccess" not in part.get("$ref", "")), {})
    resolved = _resolve(doc, schema)
    lines = [resolved["description"], ""] if resolved.get("description") else []
    if resolved.get("type") == "array":
        lines += ["An array of objects with these fields:", ""]
        resolved = resolved.get("items", {})
    rows = [(f"`{name}`", _type(doc, s), "yes" if req else "no", _rule(s)) for name, s, req in _fields(doc, resolved)]
    if not rows:
        return [*lines, "No fields.", ""]
    return [*lines, *_table(("field", "type", "always", "description"), rows), ""]


def _operation(doc: dict, path: str, method: str, op: dict) -> list[str]:
    payout = "payout" in op["tags"]
    lines = [f"## {method.upper()} `{path}`", "", op["summary"] + ".", ""]
    parameters = op.get("parameters", [])
    if parameters:
        lines += ["### Parameters", ""]
        rows = [(f"`{p['name']}`", p["in"], "yes" if p["required"] else "no", _rule(p["schema"])) for p in parameters]
        lines += [*_table(("name", "in", "required", "rule"), rows), ""]
    body = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
    if body is not None:
        lines += ["### Request", ""]
        shapes = body.get("oneOf", [body])
        for shape in shapes:
            if len(shapes) > 1:
                lines += [f"One of: `{shape['$ref'].rsplit('/', 1)[-1]}`", ""]
            lines += _request(doc, shape)
    success = op["responses"]["200"]
    lines += ["### Response", "", success["description"] + ".", ""]
    lines += _response(doc, success["content"]["application/json"]["schema"], payout)
    lines += ["### Errors", "", "See [errors.md](errors.md) for what each code means.", ""]
    errors: list[tuple[str, ...]] = []
    for status, answer in op["responses"].items():
        if status != "200":
            properties = _resolve(doc, answer["content"]["application/json"]["schema"])["properties"]
            codes = ", ".join(f"`{code}`" for code in properties["code"]["enum"])
            sub_codes = ", ".join(f"`{sub}`" for sub in properties.get("sub_code", {}).get("enum", ()))
            errors.append((status, codes, sub_codes) if not payout else (status, codes))
    header = ("HTTP", "code") if payout else ("HTTP", "code", "sub_code")
    return [*lines, *_table(header, errors), ""]


def api_page(doc: dict, title: str, tags: Iterable[str]) -> str:
    """One section per operation whose tag is in `tags`."""
    lines = [f"# {title}", "", "Generated by `checkout docs` from /openapi.json; do not edit.", ""]
    for tag in tags:  # in the order given, then by path
        for path, item in doc["paths"].items():
            for method, op in item.items():
                if op["tags"][0] == tag:
                    lines += _operation(doc, path, method, op)
    return "\n".join(lines).rstrip() + "\n"


def errors_page(reasons: Iterable[Reason]) -> str:
    """Every reason of the registry and its answer in each envelope."""
    lines = [
        "# Errors",
        "",
        "Generated by `checkout docs` from the error registry (`checkout/api/registry.py`); do not edit.",
        "",
        "A payin error answers `code`, `msg`, `sub_code` and `sub_msg`; a payout error answers `code`, `msg`,",
        "`time` and `data`. A dash: that envelope never answers the reason.",
        "",
    ]
    rows = []
    for reason in reasons:
        payin, payout = reason.payin, reason.payout
        rows.append(
            (
                f"`{reason.key}`",
                reason.kind.__name__,
                reason.meaning,
                f"`{payin.code}` ({PAYIN_MESSAGES[payin.code]})" if payin else "-",
                f"`{payin.sub_code or reason.key}`" if payin else "-",
                str(payin.status) if payin else "-",
                f"`{payout.code}`" if payout else "-",
                payout.msg if payout else "-",
                str(payout.status) if payout else "-",
                f"`{payout.data}`" if payout else "-",
            )
        )
    header = (
        "reason",
        "kind",
        "meaning",
        "payin code",
        "payin sub_code",
        "payin HTTP",
        "payout code",
        "payout msg",
        "payout HTTP",
        "payout data",
    )
    lines += _table(header, rows)
    lines += [
        "",
        'Payout `data`: `err` is `{"err": "field: rule"}`, `error` is `{"error": message}`, `data` the',
        'error\'s own data (`{"payout_id": ...}`), `empty` is `{}`. A refusal of credentials, a signature or a',
        "timestamp says what to send instead: in `sub_msg` (payin), in `hint` beside `data` (payout).",
    ]
    return "\n".join(lines) + "\n"


def pages(doc: dict, reasons: Iterable[Reason]) -> dict[str, str]:
    """File name -> Markdown of every reference page."""
    files = {name: api_page(doc, title, tags) for name, (title, tags) in PAGES.items()}
    files["errors.md"] = errors_page(reasons)
    return files
