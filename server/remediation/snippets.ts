import { DEFAULT_HMAC_HEADER } from '../signatures/hmac-sha256.ts';
import type { Snippets } from './remediation-schemas.ts';

/**
 * A minimal, correct verification handler for the endpoint's scheme, in Node
 * (Express with the raw body) and Python (Flask). Secrets come from the
 * environment: a snippet never contains one.
 */
export function verificationSnippets(scheme: string, signatureHeader: string | null): Snippets {
  if (scheme === 'stripe') return STRIPE;
  if (scheme === 'hmac_sha256') return hmac(signatureHeader ?? DEFAULT_HMAC_HEADER);
  return generic(scheme);
}

const STRIPE: Snippets = {
  node: `const express = require('express');
const stripe = require('stripe')(process.env.STRIPE_API_KEY);
const app = express();
// The raw bytes: express.json() would re-serialise the body and break the signature.
app.post('/webhook', express.raw({ type: 'application/json' }), (req, res) => {
  let event;
  try {
    event = stripe.webhooks.constructEvent(req.body, req.headers['stripe-signature'], process.env.STRIPE_WEBHOOK_SECRET);
  } catch (err) {
    return res.status(400).send(\`Webhook Error: \${err.message}\`);
  }
  res.json({ received: true });
});`,
  python: `import os, stripe
from flask import Flask, request

app = Flask(__name__)

@app.post("/webhook")
def webhook():
    payload = request.get_data()  # the raw bytes, not request.json
    try:
        event = stripe.Webhook.construct_event(
            payload, request.headers.get("Stripe-Signature"), os.environ["STRIPE_WEBHOOK_SECRET"])
    except (ValueError, stripe.error.SignatureVerificationError) as e:
        return str(e), 400
    return {"received": True}`,
};

function hmac(header: string): Snippets {
  return {
    node: `const crypto = require('node:crypto');
const express = require('express');
const app = express();
// The raw bytes: express.json() would re-serialise the body and break the signature.
app.post('/webhook', express.raw({ type: '*/*' }), (req, res) => {
  const sent = String(req.get('${header}') || '').replace(/^sha256=/, '');
  const mac = crypto.createHmac('sha256', process.env.WEBHOOK_SECRET).update(req.body).digest();
  const given = Buffer.from(sent, /^[0-9a-f]{64}$/i.test(sent) ? 'hex' : 'base64');
  if (given.length !== mac.length || !crypto.timingSafeEqual(given, mac)) return res.status(400).send('bad signature');
  const event = JSON.parse(req.body.toString('utf8'));
  res.json({ received: true });
});`,
    python: `import base64, hashlib, hmac, os
from flask import Flask, request, abort

app = Flask(__name__)

@app.post("/webhook")
def webhook():
    body = request.get_data()  # the raw bytes, not request.json
    sent = request.headers.get("${header}", "").removeprefix("sha256=")
    mac = hmac.new(os.environ["WEBHOOK_SECRET"].encode(), body, hashlib.sha256)
    if not (hmac.compare_digest(sent.lower(), mac.hexdigest())
            or hmac.compare_digest(sent, base64.b64encode(mac.digest()).decode())):
        abort(400)
    return {"received": True}`,
  };
}

function generic(scheme: string): Snippets {
  return {
    node: `// ${scheme}: verify with the provider's own SDK, always over the raw bytes.
const express = require('express');
const app = express();
app.post('/webhook', express.raw({ type: '*/*' }), (req, res) => {
  const rawBody = req.body; // a Buffer: pass it unchanged to the provider's verify function
  // verify(rawBody, req.headers, process.env.WEBHOOK_SECRET) -> 400 on failure
  res.json({ received: true });
});`,
    python: `# ${scheme}: verify with the provider's own SDK, always over the raw bytes.
import os
from flask import Flask, request

app = Flask(__name__)

@app.post("/webhook")
def webhook():
    body = request.get_data()  # the raw bytes, not request.json
    # verify(body, request.headers, os.environ["WEBHOOK_SECRET"]) -> 400 on failure
    return {"received": True}`,
  };
}
