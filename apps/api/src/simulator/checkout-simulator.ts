/**
 * A local stand-in for the Digistore24 checkout, for `pnpm dev` and the end-to-end tests. It is a server of
 * its own (never part of the API bundle): the purchase redirect lands on its product page; "Bezahlen" sends
 * a signed IPN to our endpoint over HTTP like the real provider and returns the visitor to the overview;
 * its start page lists the simulated orders with a refund button.
 */
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { digistoreSignature } from "../services/commerce/signature";

export interface SimulatorOptions {
  /** 0 = any free port */
  port: number;
  host?: string;
  /** our IPN endpoint, e.g. http://127.0.0.1:3000/api/digistore/ipn */
  ipnUrl: string;
  /** the web app's address; the visitor returns to its overview */
  appUrl: string;
  passphrase: string;
}

export interface Simulator {
  /** the product URL to configure as DIGISTORE_PRODUCT_URL */
  productUrl: string;
  url: string;
  close(): Promise<void>;
}

interface SimulatedOrder {
  fields: Record<string, string>;
  status: "bezahlt" | "erstattet";
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );

function page(title: string, body: string): string {
  return `<!doctype html><html lang="de"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:42rem;margin:2rem auto;padding:0 1rem;color:#0f172a}
.note{background:#fef3c7;padding:.75rem 1rem;border-radius:.5rem}dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}
dt{font-weight:600}dd{margin:0;word-break:break-all}button{font:inherit;padding:.5rem 1.25rem;border-radius:.375rem;border:1px solid #334155;cursor:pointer}
.pay{background:#1e3a8a;color:#fff;border-color:#1e3a8a}.actions{display:flex;gap:.75rem;margin-top:1.5rem}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #cbd5e1;padding:.4rem;text-align:left}</style>
</head><body><p class="note">Testkasse für Entwicklung und Tests. Es wird nichts bezahlt.</p>${body}</body></html>`;
}

const hidden = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join("");

async function readForm(req: IncomingMessage): Promise<Record<string, string>> {
  let body = "";
  for await (const chunk of req) {
    body += chunk;
    if (body.length > 100_000) {
      break;
    }
  }
  return Object.fromEntries(new URLSearchParams(body));
}

export async function startCheckoutSimulator(options: SimulatorOptions): Promise<Simulator> {
  const orders: SimulatedOrder[] = [];
  // the forms redirect back to the web app, which form-action must allow
  const csp = `default-src 'none'; style-src 'unsafe-inline'; form-action 'self' ${new URL(options.appUrl).origin}; frame-ancestors 'none'`;
  const send = (res: ServerResponse, status: number, html: string) => {
    res.writeHead(status, { "content-type": "text/html; charset=utf-8", "content-security-policy": csp });
    res.end(html);
  };

  async function sendIpn(fields: Record<string, string>): Promise<string> {
    const signed = { ...fields, sha_sign: digistoreSignature(fields, options.passphrase) };
    try {
      const response = await fetch(options.ipnUrl, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded; charset=utf-8" },
        body: new URLSearchParams(signed).toString(),
      });
      return `${response.status} ${(await response.text()).slice(0, 200)}`;
    } catch (error) {
      return `nicht erreichbar: ${String(error)}`;
    }
  }

  function productPage(productId: string, query: URLSearchParams): string {
    const params = Object.fromEntries(query);
    const rows = Object.entries(params)
      .map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`)
      .join("");
    return page(
      `Testkasse: Produkt ${productId}`,
      `<h1>Testkasse: Produkt ${escapeHtml(productId)}</h1><dl><dt>Produkt-ID</dt><dd>${escapeHtml(productId)}</dd>${rows}</dl>
<form method="post" action="/pay" class="actions">${hidden({ ...params, product_id: productId })}
<button class="pay" type="submit">Bezahlen</button><button type="submit" formaction="/cancel">Abbrechen</button></form>`,
    );
  }

  async function pay(form: Record<string, string>, res: ServerResponse): Promise<void> {
    const { product_id = "", email = "", first_name = "", last_name = "", custom = "", voucher = "" } = form;
    const fields: Record<string, string> = {
      event: "on_payment",
      api_mode: "live",
      order_id: `SIM-${randomBytes(4).toString("hex").toUpperCase()}`,
      order_item_id: String(orders.length + 1),
      product_id,
      transaction_id: `T-${randomBytes(6).toString("hex")}`,
      payment_id: `P-${randomBytes(6).toString("hex")}`,
      billing_status: "completed",
      amount: "49.00",
      currency: "EUR",
      email,
      buyer_email: email,
      buyer_first_name: first_name,
      buyer_last_name: last_name,
      custom,
      voucher_code: voucher,
      order_date_time: new Date().toISOString(),
    };
    const answer = await sendIpn(fields);
    if (!answer.startsWith("200 OK")) {
      send(
        res,
        502,
        page(
          "Fehler",
          `<h1>Die Zahlungsbenachrichtigung wurde nicht angenommen</h1><p>${escapeHtml(answer)}</p>`,
        ),
      );
      return;
    }
    orders.unshift({ fields, status: "bezahlt" });
    // the provider returns the visitor with pid and cat only
    const back = custom
      .split("|")
      .filter((part) => !part.startsWith("uid-"))
      .join("|");
    res.writeHead(303, {
      location: `${options.appUrl.replace(/\/$/, "")}/?custom=${encodeURIComponent(back)}`,
    });
    res.end();
  }

  async function refund(form: Record<string, string>, res: ServerResponse): Promise<void> {
    const order = orders.find((o) => o.fields.order_id === form.order_id);
    if (order) {
      const answer = await sendIpn({ ...order.fields, event: "on_refund", billing_status: "refunded" });
      if (answer.startsWith("200 OK")) {
        order.status = "erstattet";
      }
    }
    res.writeHead(303, { location: "/" });
    res.end();
  }

  function ordersPage(): string {
    const rows = orders
      .map(
        (o) =>
          `<tr><td>${escapeHtml(o.fields.order_id ?? "")}</td><td>${escapeHtml(o.fields.product_id ?? "")}</td><td>${escapeHtml(o.fields.email ?? "")}</td><td>${o.status}</td><td>${
            o.status === "bezahlt"
              ? `<form method="post" action="/refund">${hidden({ order_id: o.fields.order_id ?? "" })}<button type="submit">Erstatten</button></form>`
              : ""
          }</td></tr>`,
      )
      .join("");
    return page(
      "Testkasse: Bestellungen",
      `<h1>Testkasse: Bestellungen</h1>${
        orders.length === 0
          ? "<p>Noch keine Bestellungen.</p>"
          : `<table><thead><tr><th>Bestellung</th><th>Produkt</th><th>E-Mail</th><th>Status</th><th></th></tr></thead><tbody>${rows}</tbody></table>`
      }`,
    );
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://simulator");
    const route = `${req.method} ${url.pathname}`;
    const handle = async () => {
      if (req.method === "GET" && url.pathname.startsWith("/product/")) {
        send(
          res,
          200,
          productPage(decodeURIComponent(url.pathname.slice("/product/".length)), url.searchParams),
        );
      } else if (route === "POST /pay") {
        await pay(await readForm(req), res);
      } else if (route === "POST /cancel") {
        res.writeHead(303, { location: `${options.appUrl.replace(/\/$/, "")}/` });
        res.end();
      } else if (route === "POST /refund") {
        await refund(await readForm(req), res);
      } else if (route === "GET /") {
        send(res, 200, ordersPage());
      } else {
        send(res, 404, page("Nicht gefunden", "<h1>Nicht gefunden</h1>"));
      }
    };
    handle().catch((error: unknown) =>
      send(res, 500, page("Fehler", `<h1>Fehler</h1><p>${escapeHtml(String(error))}</p>`)),
    );
  });
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((done) => server.listen(options.port, host, done));
  const { port } = server.address() as AddressInfo;
  const url = `http://${host === "127.0.0.1" ? "localhost" : host}:${port}`;
  return {
    url,
    productUrl: `${url}/product/`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
