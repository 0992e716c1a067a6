"""The bare Flask app every throughput is divided by: the same gunicorn, no database, no work."""

from __future__ import annotations

from flask import Flask, jsonify

app = Flask(__name__)


@app.route("/bare", methods=["GET", "POST"])
def bare():
    return jsonify({"code": "10000", "msg": "Success"})


@app.post("/notify")
def notify():
    # What a merchant's notify_url answers to acknowledge a delivery.
    return "success"
