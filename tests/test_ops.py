def test_healthz(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.get_json() == {"status": "ok", "sandbox": True}


def test_openapi_is_built_from_the_request_models(client):
    doc = client.get("/openapi.json").get_json()
    assert doc["openapi"] == "3.1.0" and doc["servers"] == [{"url": "http://checkout.test"}]
    assert {
        "/card/token",
        "/trade/pre-authorization",
        "/trade/pay",
        "/trade/create",
        "/trade/refund",
        "/trade/query",
        "/trade/bank-list",
        "/vault/create",
        "/vault/void",
        "/sandbox/trades/{trade_no}/pay",
    } <= set(doc["paths"])
    schemas = doc["components"]["schemas"]
    refund = schemas["RefundRequest"]
    assert set(refund["required"]) == {"app_id", "timestamp", "refund_currency", "refund_amount"}
    assert refund["properties"]["app_id"]["maxLength"] == 32
    pay = doc["paths"]["/trade/pay"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert pay == {
        "oneOf": [{"$ref": "#/components/schemas/VaultPayRequest"}, {"$ref": "#/components/schemas/DirectPayRequest"}]
    }
    assert schemas["ThreeDS"]["properties"]["status_code"]["enum"] == ["U", "N", "Y", "A", "C", "D", "R", "I"]
    assert doc["paths"]["/sandbox/trades/{trade_no}/pay"]["post"]["parameters"][0]["name"] == "trade_no"


def test_openapi_documents_the_payout_operations_with_their_own_envelope(client):
    doc = client.get("/openapi.json").get_json()
    dry_run = doc["paths"]["/api/payout/dry-run"]["post"]
    assert dry_run["security"] == [{"appId": [], "payoutSignature": []}]
    assert dry_run["responses"]["401"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/PayoutError401"
    }
    assert {"/api/payout", "/api/payout/status", "/api/payout/detail", "/api/checkout", "/api/balance/history"} <= set(
        doc["paths"]
    )
    assert doc["components"]["schemas"]["CheckoutRequest"]["properties"]["timeout"]["maximum"] == 1800


def test_openapi_documents_query_parameters(client):
    doc = client.get("/openapi.json").get_json()
    assert doc["paths"]["/sandbox/deliveries"]["get"]["parameters"] == [
        {
            "name": "status",
            "in": "query",
            "required": False,
            "schema": {
                "type": "string",
                "enum": ["pending", "delivered", "failed", "skipped", ""],
                "description": "empty: all",
            },
        }
    ]


def test_openapi_patterns_spell_ascii_digits(client):
    # The service takes ASCII digits only; to Python-based tools a pattern's \d is any Unicode digit.
    text = client.get("/openapi.json").get_data(as_text=True)
    assert "\\\\d" not in text and "[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}" in text
