"""The OpenAPI document, built from the same pydantic models that validate requests."""
from __future__ import annotations

import re

from pydantic.json_schema import models_json_schema

# Keyed by Flask endpoint name; paths come from the app's URL map, so prefixes and disabled
# blueprints (sandbox off) are reflected as they are served.
_operations: dict[str, dict] = {}

PAYIN_ENVELOPE = {
    "type": "object",
    "required": ["code", "msg"],
    "properties": {
        "code": {"type": "string", "example": "10000"},
        "msg": {"type": "string"},
        "sub_code": {"type": "string"},
        "sub_msg": {"type": "string"},
    },
    "additionalProperties": True,
}


PAYOUT_ENVELOPE = {
    "type": "object",
    "required": ["code", "msg", "time", "data"],
    "properties": {
        "code": {"type": "integer", "example": 200},
        "msg": {"type": "string"},
        "time": {"type": "integer", "description": "unix seconds"},
        "data": {"anyOf": [{"type": "object"}, {"type": "array"}]},
    },
}


def _responses(envelope: str, statuses: dict[str, str]) -> dict:
    ref = {"$ref": f"#/components/schemas/{envelope}"}
    return {status: {"description": text, "content": {"application/json": {"schema": ref}}}
            for status, text in statuses.items()}


PAYIN_RESPONSES = _responses("PayinEnvelope", {
    "200": "Success envelope (code 10000)", "400": "Error envelope (code 40001 or 40002)",
    "413": "Body over 1 MiB"})
PAYOUT_RESPONSES = _responses("PayoutEnvelope", {
    "200": "Success (code 200)", "400": "Invalid or expired request (4001000, 4001009, 400, ...)",
    "401": "Permission denied (4004003)"})


def register(endpoint: str, model, *, summary: str, tag: str, query: dict[str, dict] | None = None) -> None:
    """`model` is a request model, a tuple of alternative models (oneOf), or None for no body; `query`
    maps optional query parameters to their JSON schemas."""
    _operations[endpoint] = {"model": model, "summary": summary, "tag": tag, "query": query or {}}


def _served(app) -> list[tuple[str, str, dict]]:
    served = []
    for rule in app.url_map.iter_rules():
        op = _operations.get(rule.endpoint)
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


def document(app, server_url: str | None = None) -> dict:
    served = _served(app)
    models = {m for _, _, op in served for m in _as_tuple(op["model"])}
    refs, schemas = models_json_schema([(m, "validation") for m in sorted(models, key=lambda m: m.__name__)],
                                       ref_template="#/components/schemas/{model}")
    paths: dict[str, dict] = {}
    for path, method, op in served:
        payout = op["tag"] == "payout"
        entry = {
            "summary": op["summary"],
            "tags": [op["tag"]],
            "security": [{"appId": [], "payoutSignature": []}] if payout else [{"basicAuth": []}],
            "responses": PAYOUT_RESPONSES if payout else PAYIN_RESPONSES,
        }
        shapes = [refs[(m, "validation")] for m in _as_tuple(op["model"])]
        if shapes:
            schema = shapes[0] if len(shapes) == 1 else {"oneOf": shapes}
            entry["requestBody"] = {"required": True, "content": {"application/json": {"schema": schema}}}
        parameters = [{"name": part[1:-1], "in": "path", "required": True, "schema": {"type": "string"}}
                      for part in path.split("/") if part.startswith("{")]
        parameters += [{"name": name, "in": "query", "required": False, "schema": schema}
                       for name, schema in op["query"].items()]
        if parameters:
            entry["parameters"] = parameters
        paths.setdefault(path, {})[method] = entry
    components = dict(schemas.get("$defs", {}))
    components["PayinEnvelope"] = PAYIN_ENVELOPE
    components["PayoutEnvelope"] = PAYOUT_ENVELOPE
    doc = {
        "openapi": "3.1.0",
        "info": {"title": "checkout", "version": "1.0.0",
                 "description": "Payin gateway and payout platform (sandbox)."},
        "paths": paths,
        "components": {"schemas": components,
                       "securitySchemes": {
                           "basicAuth": {"type": "http", "scheme": "basic"},
                           "appId": {"type": "apiKey", "in": "header", "name": "AppId"},
                           "payoutSignature": {"type": "apiKey", "in": "header", "name": "Authorization",
                                               "description": "SHA-256 of the sorted body parameters and the app key"},
                       }},
    }
    if server_url:
        doc["servers"] = [{"url": server_url}]
    return doc
