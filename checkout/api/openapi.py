"""The OpenAPI document: request and response pydantic models, error answers from the error registry."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from pydantic.json_schema import models_json_schema

from . import registry

# What documents an operation is kept on its view function, under this name: the document lists the views
# the app's URL map serves, so prefixes and disabled blueprints (sandbox off) are reflected as they are served.
OPERATION = "checkout_openapi"

PAYIN_SUCCESS = {
    "type": "object",
    "required": ["code", "msg"],
    "properties": {"code": {"const": "10000"}, "msg": {"const": "Success"}},
}


def _table(header: tuple[str, ...], rows: Sequence[tuple[str, ...]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def _payin_errors() -> dict[str, tuple[dict, str]]:
    """HTTP status -> (schema, description) of the payin error answers the registry knows."""
    by_status: dict[int, list[tuple[str, str, str]]] = {}
    for reason in registry.REASONS:
        if reason.payin is None:
            continue
        sub_code = reason.payin.sub_code or reason.key
        rows = by_status.setdefault(reason.payin.status, [])
        if all(row[1] != sub_code for row in rows):  # an alias (sub_code of another reason) is listed once
            rows.append((reason.payin.code, sub_code, reason.meaning))
    answers = {}
    for status, rows in sorted(by_status.items()):
        codes = sorted({code for code, _, _ in rows})
        schema = {
            "type": "object",
            "required": ["code", "msg", "sub_code", "sub_msg"],
            "properties": {
                "code": {"type": "string", "enum": codes},
                "msg": {"type": "string", "enum": sorted({registry.PAYIN_MESSAGES[code] for code in codes})},
                "sub_code": {"type": "string", "enum": [sub_code for _, sub_code, _ in rows]},
                "sub_msg": {"type": "string", "description": "what was wrong, for a person to read"},
            },
        }
        table = _table(("code", "sub_code", "meaning"), [(f"`{c}`", f"`{s}`", m) for c, s, m in rows])
        answers[str(status)] = (schema, f"Error (HTTP {status}).\n\n{table}")
    return answers


def _payout_errors() -> dict[str, tuple[dict, str]]:
    """HTTP status -> (schema, description) of the payout error answers the registry knows."""
    by_status: dict[int, dict[tuple[int, str], list[str]]] = {}
    for reason in registry.REASONS:
        if reason.payout is not None:
            answer = reason.payout
            by_status.setdefault(answer.status, {}).setdefault((answer.code, answer.msg), []).append(reason.key)
    answers = {}
    for status, codes in sorted(by_status.items()):
        schema = {
            "type": "object",
            "required": ["code", "msg", "time", "data"],
            "properties": {
                "code": {"type": "integer", "enum": sorted({code for code, _ in codes})},
                "msg": {"type": "string"},
                "time": {"type": "integer", "description": "unix seconds"},
                "data": {"type": "object", "description": "{err: ...}, {error: ...}, the error's data, or {}"},
                "hint": {
                    "type": "string",
                    "description": "credential, signature and timestamp refusals: what to send instead",
                },
            },
        }
        rows = [
            (f"`{code}`", msg, ", ".join(f"`{key}`" for key in keys)) for (code, msg), keys in sorted(codes.items())
        ]
        answers[str(status)] = (schema, f"Error (HTTP {status}).\n\n{_table(('code', 'msg', 'reasons'), rows)}")
    return answers


def _error_responses(errors: dict[str, tuple[dict, str]], prefix: str) -> dict:
    return {
        status: {
            "description": description,
            "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{prefix}{status}"}}},
        }
        for status, (_, description) in errors.items()
    }


def _success(payout: bool, data: dict | None) -> dict:
    schema: dict[str, Any]
    if payout:
        schema = {
            "type": "object",
            "required": ["code", "msg", "time", "data"],
            "properties": {
                "code": {"const": 200},
                "msg": {"const": "success"},
                "time": {"type": "integer", "description": "unix seconds"},
                "data": data or {"type": "object"},
            },
        }
        text = "Success (code 200); the answer is `data`"
    else:
        success: dict[str, Any] = {"$ref": "#/components/schemas/PayinSuccess"}
        schema = {"allOf": [success, data]} if data else success
        text = "Success (code 10000); the answer's fields beside code and msg"
    return {"description": text, "content": {"application/json": {"schema": schema}}}


def describe(
    view: Callable, model, *, summary: str, tag: str, query: dict[str, dict] | None = None, response=None
) -> None:
    """Document the operation `view` serves: `model` is a request model, a tuple of alternative models
    (oneOf), or None for no body; `query` maps optional query parameters to their JSON schemas."""
    operation = {"model": model, "summary": summary, "tag": tag, "query": query or {}, "response": response}
    view.__dict__[OPERATION] = operation


def _served(app) -> list[tuple[str, str, dict]]:
    served = []
    for rule in app.url_map.iter_rules():
        op = getattr(app.view_functions.get(rule.endpoint), OPERATION, None)
        if op is None:
            continue
        path = re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule.rule)
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            served.append((path, method.lower(), op))
    return sorted(served, key=lambda item: (item[0], item[1]))


def _as_tuple(model) -> tuple:
    if model is None:
        return ()
    return model if isinstance(model, tuple) else (model,)


def _schemas(models: set) -> tuple[dict, dict]:
    refs, schemas = models_json_schema(
        [(m, "validation") for m in sorted(models, key=lambda m: m.__name__)],
        ref_template="#/components/schemas/{model}",
    )
    return {m: refs[(m, "validation")] for m in models}, schemas.get("$defs", {})


def _operation(path: str, op: dict, requests: dict, responses: dict, errors: dict) -> dict:
    """One operation of the document: its request body, parameters, success and error answers."""
    payout = op["tag"] == "payout"
    entry = {
        "summary": op["summary"],
        "tags": [op["tag"]],
        "security": [{"appId": [], "payoutSignature": []}] if payout else [{"basicAuth": []}],
        "responses": {
            "200": _success(payout, responses.get(op["response"])),
            **_error_responses(errors, "PayoutError" if payout else "PayinError"),
        },
    }
    shapes = [requests[m] for m in _as_tuple(op["model"])]
    if shapes:
        schema = shapes[0] if len(shapes) == 1 else {"oneOf": shapes}
        entry["requestBody"] = {"required": True, "content": {"application/json": {"schema": schema}}}
    parameters = [
        {"name": part[1:-1], "in": "path", "required": True, "schema": {"type": "string"}}
        for part in path.split("/")
        if part.startswith("{")
    ]
    parameters += [
        {"name": name, "in": "query", "required": False, "schema": schema} for name, schema in op["query"].items()
    ]
    if parameters:
        entry["parameters"] = parameters
    return entry


def document(app, server_url: str | None = None) -> dict:
    served = _served(app)
    models = {m for _, _, op in served for m in _as_tuple(op["model"])}
    requests, components = _schemas(models)
    # Apart from the requests, so that a response model can never rename a request schema.
    responses, response_schemas = _schemas({op["response"] for _, _, op in served if op["response"]})
    clash = {name for name, schema in response_schemas.items() if components.get(name, schema) != schema}
    if clash:
        raise ValueError(f"response and request models share a name: {', '.join(sorted(clash))}")
    components.update(response_schemas)
    payin_errors, payout_errors = _payin_errors(), _payout_errors()
    paths: dict[str, dict] = {}
    for path, method, op in served:
        errors = payout_errors if op["tag"] == "payout" else payin_errors
        paths.setdefault(path, {})[method] = _operation(path, op, requests, responses, errors)
    components["PayinSuccess"] = PAYIN_SUCCESS
    components.update({f"PayinError{status}": schema for status, (schema, _) in payin_errors.items()})
    components.update({f"PayoutError{status}": schema for status, (schema, _) in payout_errors.items()})
    doc: dict = {
        "openapi": "3.1.0",
        "info": {
            "title": "checkout",
            "version": "1.0.0",
            "description": "Payin gateway and payout platform (sandbox).",
        },
        "paths": paths,
        "components": {
            "schemas": components,
            "securitySchemes": {
                "basicAuth": {"type": "http", "scheme": "basic"},
                "appId": {"type": "apiKey", "in": "header", "name": "AppId"},
                "payoutSignature": {
                    "type": "apiKey",
                    "in": "header",
                    "name": "Authorization",
                    "description": "SHA-256 of the sorted body parameters and the app key",
                },
            },
        },
    }
    if server_url:
        doc["servers"] = [{"url": server_url}]
    return doc
