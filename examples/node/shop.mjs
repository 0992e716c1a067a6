// A minimal merchant integration: a Pix payment, its signed callback received and verified, a signed payout.
//
// Node 20 or newer, no npm packages (built-in fetch, http and crypto). Set CHECKOUT_URL (default
// http://127.0.0.1:8000), APP_ID, SECURITY_KEY and APP_KEY (from `checkout merchants create`), and SHOP_PORT
// for the callback server (default 3000). The payout spends the merchant's USD balance: fund it first.

import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";

const CHECKOUT_URL = (process.env.CHECKOUT_URL || "http://127.0.0.1:8000").replace(/\/+$/, "");
const { APP_ID, SECURITY_KEY, APP_KEY } = process.env;
const SHOP_PORT = Number(process.env.SHOP_PORT || 3000);

// Pagsmile-Signature: t=<unix>,v2=<HMAC-SHA256 of the raw body, keyed with the security key>.
function callbackIsGenuine(rawBody, header) {
  const parts = Object.fromEntries(
    (header || "").split(",").filter((item) => item.includes("=")).map((item) => {
      const at = item.indexOf("=");
      return [item.slice(0, at).trim(), item.slice(at + 1).trim()];
    }),
  );
  const expected = Buffer.from(createHmac("sha256", SECURITY_KEY).update(rawBody).digest("hex"));
  const given = Buffer.from(parts.v2 || "");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

// JSON with sorted keys at every level, no spaces: how nested values enter the payout signature.
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

// The payout platform's signature: non-empty top-level keys sorted, `k=v` joined by `&`, the app key appended,
// SHA-256 in lowercase hex.
function payoutSignature(body) {
  const pairs = Object.keys(body)
    .filter((key) => body[key] !== null && body[key] !== undefined && body[key] !== "")
    .sort()
    .map((key) => `${key}=${typeof body[key] === "string" ? body[key] : canonical(body[key])}`);
  return createHash("sha256").update(pairs.join("&") + APP_KEY).digest("hex");
}

let delivered;
const callback = new Promise((resolve) => { delivered = resolve; });

// POST /notify: a payin callback, answered `success` only when its signature holds.
const server = createServer((request, response) => {
  const chunks = [];
  request.on("data", (chunk) => chunks.push(chunk));
  request.on("end", () => {
    const raw = Buffer.concat(chunks);
    const genuine = request.method === "POST" && request.url === "/notify"
      && callbackIsGenuine(raw, request.headers["pagsmile-signature"]);
    response.writeHead(genuine ? 200 : 401).end(genuine ? "success" : "bad signature");
    if (genuine) delivered(JSON.parse(raw.toString("utf8")));
  });
});

async function payin(path, body) {
  const answer = await (await fetch(CHECKOUT_URL + path, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Authorization: "Basic " + Buffer.from(`${APP_ID}:${SECURITY_KEY}`).toString("base64"),
    },
    body: JSON.stringify(body),
  })).json();
  if (answer.code !== "10000") throw new Error(`${path} refused: ${JSON.stringify(answer)}`);
  return answer;
}

async function payout(path, body) {
  const answer = await (await fetch(CHECKOUT_URL + path, {
    method: "POST",
    headers: { "Content-Type": "application/json", AppId: APP_ID, Authorization: payoutSignature(body) },
    body: JSON.stringify(body),
  })).json();
  if (answer.code !== 200) throw new Error(`${path} refused: ${JSON.stringify(answer)}`);
  return answer.data;
}

function withTimeout(promise, seconds, what) {
  let timer;
  const late = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`no ${what} within ${seconds} s`)), seconds * 1000); });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

async function main() {
  await new Promise((resolve) => server.listen(SHOP_PORT, "127.0.0.1", resolve));
  const order = `order-${Date.now()}`;
  const now = new Date().toISOString();
  const trade = await payin("/trade/pay", {
    app_id: APP_ID,
    timestamp: `${now.slice(0, 10)} ${now.slice(11, 19)}`,
    out_trade_no: order,
    method: "PIX",
    order_currency: "BRL",
    order_amount: "100.50",
    subject: "Order 1",
    notify_url: `http://127.0.0.1:${SHOP_PORT}/notify`,
    buyer_id: "buyer-1",
    customer: {
      name: "Ana Souza", email: "ana@example.com", phone: "+5511987654321",
      identify: { type: "CPF", number: "39053344705" },
    },
    address: { zip_code: "01310100", state: "SP", city: "São Paulo", street_number: "1000", street: "Avenida Paulista" },
  });
  console.log(`payment ${trade.trade_no}: ${trade.trade_status}`);
  await payin(`/sandbox/trades/${trade.trade_no}/pay`, {}); // the customer pays (sandbox only)
  const received = await withTimeout(callback, 60, "verified callback");
  console.log(`verified callback: ${received.out_trade_no} ${received.trade_status} ${received.amount} ${received.currency}`);

  const sent = await payout("/api/payout", {
    name: "Ana Souza", email: "ana@example.com", account: "39053344705", account_type: "CPF",
    document_id: "39053344705", document_type: "CPF", method: "PIX", custom_code: `payout-${order}`,
    fee_bear: "merchant", amount: "100.00", source_currency: "USD", arrival_currency: "BRL", country: "BRA",
    timestamp: Math.floor(Date.now() / 1000),
  });
  console.log(`payout ${sent.transaction_id}: ${sent.status} (${sent.arrival_amount} BRL for ${sent.source_amount} USD)`);
  // The sandbox bank pays it 360 s later on the merchant's sandbox clock: move the clock instead of waiting.
  await payin("/sandbox/clock", { advance_seconds: 360 });
  const status = await payout("/api/payout/status", { custom_code: sent.custom_code });
  console.log(`payout ${status.payout_id}: ${status.status}`);
}

main().then(
  () => server.close(),
  (error) => { console.error(error.message); server.close(); process.exitCode = 1; },
);
