import { formatMoney } from '@storefront/shared';
import { parseGatewayAmount } from './gateway-fields.ts';

// The sandbox gateway's pages: plain server-rendered HTML with inline styles, so that
// they look nothing like the shop and nobody mistakes them for a real bank's page.

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font-family:ui-sans-serif,system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;background:#f1f4f9;color:#14213d;line-height:1.5}
.banner{background:#b42318;color:#fff;text-align:center;padding:10px 16px;font-weight:700;letter-spacing:.02em}
.banner small{display:block;font-weight:500;opacity:.95}
main{max-width:30rem;margin:24px auto;padding:0 16px}
.card{background:#fff;border:1px solid #d5dbe6;border-radius:14px;padding:24px;box-shadow:0 4px 18px rgba(20,33,61,.08)}
h1{font-size:1.25rem;margin:0 0 4px}
.muted{color:#46506a;font-size:.92rem;margin:0}
dl{display:grid;grid-template-columns:auto 1fr;gap:6px 16px;margin:20px 0;font-size:.95rem}
dt{color:#46506a}dd{margin:0;text-align:right;word-break:break-word}
.amount{font-size:2rem;font-weight:800;margin:8px 0 0}
.test-card{border:2px dashed #1d4ed8;border-radius:10px;padding:12px 14px;background:#eef3ff;font-size:.9rem;margin:16px 0}
button{display:block;width:100%;min-height:48px;margin-top:10px;border-radius:10px;font-size:1rem;font-weight:700;cursor:pointer;border:2px solid transparent}
button:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}
.pay{background:#1d4ed8;color:#fff}.pay:hover{background:#1e40af}
.risky{background:#fff;color:#92400e;border-color:#b45309}
.fail{background:#fff;color:#b42318;border-color:#b42318}
.cancel{background:#fff;color:#14213d;border-color:#9aa5bb}
.foot{text-align:center;font-size:.8rem;color:#46506a;margin-top:16px}
`;

function shell(title: string, body: string, nonce?: string, script?: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${esc(title)}</title><style>${STYLE}</style></head><body>
<div class="banner" role="note">TEST PAYMENT — SANDBOX<small>No real money moves on this page. It stands in for the card gateway.</small></div>
<main>${body}</main>${script && nonce ? `<script nonce="${nonce}">${script}</script>` : ''}</body></html>`;
}

export interface SandboxPageSession {
  session_key: string;
  tran_id: string;
  amount: string;
  currency: string;
  customer_name: string;
  product_name: string;
  value_a: string | null;
  status: string;
}

export function sandboxPayPage(s: SandboxPageSession, merchant: string): string {
  const minor = parseGatewayAmount(s.amount);
  const shown = minor === null ? `${s.currency} ${s.amount}` : formatMoney(minor);
  const body = `<div class="card">
<p class="muted">Sandbox gateway · paying</p>
<h1>${esc(merchant)}</h1>
<p class="amount" data-testid="sandbox-amount">${esc(shown)}</p>
<dl>
<dt>Invoice</dt><dd>${esc(s.value_a ?? '')}</dd>
<dt>Transaction</dt><dd><code>${esc(s.tran_id)}</code></dd>
<dt>Payer</dt><dd>${esc(s.customer_name)}</dd>
<dt>Items</dt><dd>${esc(s.product_name)}</dd>
</dl>
<div class="test-card" role="note">Test card 4111&nbsp;1111&nbsp;1111&nbsp;1111, any future date, any CVC. Choose what the bank answers:</div>
<form method="post" action="/payments/sandbox/pay">
<input type="hidden" name="session" value="${esc(s.session_key)}">
<button class="pay" type="submit" name="action" value="pay">Pay ${esc(shown)}</button>
<button class="risky" type="submit" name="action" value="risky">Pay, but flag as high risk</button>
<button class="fail" type="submit" name="action" value="fail">Decline the payment</button>
<button class="cancel" type="submit" name="action" value="cancel">Cancel and go back to the shop</button>
</form>
</div>
<p class="foot">This page belongs to the shop's built-in test gateway. Set PAYMENT_PROVIDER=sslcommerz to take real payments.</p>`;
  return shell(`Test payment — ${merchant}`, body);
}

/**
 * The hand-back a real gateway does: a form that POSTs the (signed) result to the shop's
 * return URL, submitted by script at once, or by the button without script.
 */
export function sandboxReturnPage(action: string, fields: Record<string, string>, nonce: string, outcome: string): string {
  const inputs = Object.entries(fields)
    .map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`)
    .join('');
  const body = `<div class="card"><h1>${esc(outcome)}</h1><p class="muted">Taking you back to the shop…</p>
<form id="back" method="post" action="${esc(action)}">${inputs}<button class="pay" type="submit">Return to the shop</button></form></div>`;
  return shell('Returning to the shop', body, nonce, `document.getElementById('back').submit();`);
}

export function sandboxMessagePage(title: string, text: string): string {
  return shell(title, `<div class="card"><h1>${esc(title)}</h1><p>${esc(text)}</p></div>`);
}
