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


def register(endpoint: str, model, *, summary: str, tag: str) -> None:
    """`model` is a request model, a tuple of alternative models (oneOf), or None for no body."""
    _operations[endpoint] = {"model": model, "summary": summary, "tag": tag}


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
        entry = {
            "summary": op["summary"],
            "tags": [op["tag"]],
            "security": [{"basicAuth": []}],
            "responses": {
                "200": {"description": "Success envelope (code 10000)",
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/PayinEnvelope"}}}},
                "400": {"description": "Error envelope (code 40001 or 40002)",
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/PayinEnvelope"}}}},
                "413": {"description": "Body over 1 MiB",
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/PayinEnvelope"}}}},
            },
        }
        shapes = [refs[(m, "validation")] for m in _as_tuple(op["model"])]
        if shapes:
            schema = shapes[0] if len(shapes) == 1 else {"oneOf": shapes}
            entry["requestBody"] = {"required": True, "content": {"application/json": {"schema": schema}}}
        parameters = [{"name": part[1:-1], "in": "path", "required": True, "schema": {"type": "string"}}
                      for part in path.split("/") if part.startswith("{")]
        if parameters:
            entry["parameters"] = parameters
        paths.setdefault(path, {})[method] = entry
    components = dict(schemas.get("$defs", {}))
    components["PayinEnvelope"] = PAYIN_ENVELOPE
    doc = {
        "openapi": "3.1.0",
        "info": {"title": "checkout", "version": "1.0.0",
                 "description": "Payin gateway and payout platform (sandbox)."},
        "paths": paths,
        "components": {"schemas": components,
                       "securitySchemes": {"basicAuth": {"type": "http", "scheme": "basic"}}},
    }
    if server_url:
        doc["servers"] = [{"url": server_url}]
    return doc
