/**
 * A local stand-in for the Digistore24 checkout, for `pnpm dev` and the end-to-end tests. It is a server of
 * its own (never part of the API bundle): the purchase redirect lands on its product page; "Bezahlen" sends
 * a signed IPN to our endpoint over HTTP like the real provider and returns the visitor to the overview.
 * Like Digistore24 it validates the IPN URL with a GET when it starts, sends the full field set, and sends
 * refunds and chargebacks as transactions of their own; its start page lists the orders (refund,
 * chargeback) and every notification sent, each of which can be sent again exactly as before.
 */
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { digistoreSignature } from "../services/commerce/signature";
import { escapeHtml, hidden, page, readForm } from "./html";
import { checkIpnUrl, type IpnUrlCheck, type SimulatorLog } from "./ipn-url-check";
import { paymentFields, type Reversal, reversalFields, transactionIds } from "./notifications";

export type { IpnUrlCheck, SimulatorLog } from "./ipn-url-check";

export interface SimulatorOptions {
  /** 0 = any free port */
  port: number;
  host?: string;
  /** our IPN endpoint, e.g. http://127.0.0.1:3000/api/digistore/ipn */
  ipnUrl: string;
  /** the web app's address; the visitor returns to its overview */
  appUrl: string;
  passphrase: string;
  /** how long the start-up GET of the IPN URL retries while nothing answers (default 60 s) */
  validateTimeoutMs?: number;
  validateIntervalMs?: number;
  /** default: the console, prefixed */
  log?: SimulatorLog;
}

/** One notification as it went out: `body` is the exact form body, so a re-send is byte-identical. */
export interface SentNotification {
  id: number;
  event: string;
  orderId: string;
  transactionId: string;
  body: string;
  sentAt: Date;
  /** the endpoint's status and the start of its answer, or why it was not reached */
  answer: string;
  /** the id of the notification this one repeats */
  resendOf?: number;
}

export interface Simulator {
  /** the product URL to configure as DIGISTORE_PRODUCT_URL */
  productUrl: string;
  url: string;
  /** the start-up GET of the IPN URL; never rejects */
  validated: Promise<IpnUrlCheck>;
  /** every notification sent, newest first */
  notifications(): readonly SentNotification[];
  close(): Promise<void>;
}

type OrderStatus = "bezahlt" | "erstattet" | "zurückgebucht";

interface SimulatedOrder {
  /** the payment notification's fields (unsigned) */
  fields: Record<string, string>;
  status: OrderStatus;
}

const consoleLog: SimulatorLog = {
  info: (message) => console.log(`[checkout-simulator] ${message}`),
  warn: (message) => console.warn(`[checkout-simulator] ${message}`),
};

const REVERSALS: Record<string, { event: Reversal; status: OrderStatus }> = {
  "/refund": { event: "on_refund", status: "erstattet" },
  "/chargeback": { event: "on_chargeback", status: "zurückgebucht" },
};

export async function startCheckoutSimulator(options: SimulatorOptions): Promise<Simulator> {
  const log = options.log ?? consoleLog;
  const orders: SimulatedOrder[] = [];
  const sent: SentNotification[] = [];
  const nextTransactionId = transactionIds();
  // the forms redirect back to the web app, which form-action must allow
  const csp = `default-src 'none'; style-src 'unsafe-inline'; form-action 'self' ${new URL(options.appUrl).origin}; frame-ancestors 'none'`;
  const send = (res: ServerResponse, status: number, html: string) => {
    res.writeHead(status, { "content-type": "text/html; charset=utf-8", "content-security-policy": csp });
    res.end(html);
  };
  const redirect = (res: ServerResponse, location: string) => {
    res.writeHead(303, { location });
    res.end();
  };

  async function post(body: string): Promise<string> {
    try {
      const response = await fetch(options.ipnUrl, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded; charset=utf-8" },
        body,
      });
      return `${response.status} ${(await response.text()).slice(0, 200)}`;
    } catch (error) {
      return `nicht erreichbar: ${String(error)}`;
    }
  }

  /** Signs every field (empty ones take no part, as at Digistore24), sends and records the notification. */
  async function sendIpn(fields: Record<string, string>): Promise<SentNotification> {
    const signed = { ...fields, sha_sign: digistoreSignature(fields, options.passphrase) };
    const body = new URLSearchParams(signed).toString();
    const notification: SentNotification = {
      id: sent.length + 1,
      event: fields.event ?? "",
      orderId: fields.order_id ?? "",
      transactionId: fields.transaction_id ?? "",
      body,
      sentAt: new Date(),
      answer: await post(body),
    };
    sent.unshift(notification);
    return notification;
  }

  async function resend(id: number): Promise<void> {
    const original = sent.find((n) => n.id === id);
    if (original) {
      sent.unshift({
        ...original,
        id: sent.length + 1,
        sentAt: new Date(),
        answer: await post(original.body),
        resendOf: original.resendOf ?? original.id,
      });
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
    const fields = paymentFields({
      productId: product_id,
      buyer: { email, firstName: first_name, lastName: last_name },
      custom,
      voucher,
      orderItemId: String(orders.length + 1),
      transactionId: nextTransactionId(),
    });
    const { answer } = await sendIpn(fields);
    if (!answer.startsWith("200 OK")) {
      const html = `<h1>Die Zahlungsbenachrichtigung wurde nicht angenommen</h1><p>${escapeHtml(answer)}</p>`;
      send(res, 502, page("Fehler", html));
      return;
    }
    orders.unshift({ fields, status: "bezahlt" });
    // the provider returns the visitor with pid and cat only
    const back = custom
      .split("|")
      .filter((part) => !part.startsWith("uid-"))
      .join("|");
    redirect(res, `${options.appUrl.replace(/\/$/, "")}/?custom=${encodeURIComponent(back)}`);
  }

  async function reverse(path: string, form: Record<string, string>): Promise<void> {
    const reversal = REVERSALS[path];
    const order = orders.find((o) => o.fields.order_id === form.order_id);
    if (reversal && order?.status === "bezahlt") {
      const fields = reversalFields(order.fields, reversal.event, nextTransactionId());
      const { answer } = await sendIpn(fields);
      if (answer.startsWith("200 OK")) {
        order.status = reversal.status;
      }
    }
  }

  function ordersTable(): string {
    if (orders.length === 0) {
      return "<p>Noch keine Bestellungen.</p>";
    }
    const rows = orders
      .map((o) => {
        const id = hidden({ order_id: o.fields.order_id ?? "" });
        const actions =
          o.status === "bezahlt"
            ? `<form method="post" action="/refund">${id}<button type="submit">Erstatten</button></form><form method="post" action="/chargeback">${id}<button type="submit">Rückbuchung</button></form>`
            : "";
        const cells = [o.fields.order_id, o.fields.product_id, o.fields.email, o.status]
          .map((text) => `<td>${escapeHtml(text ?? "")}</td>`)
          .join("");
        return `<tr>${cells}<td>${actions}</td></tr>`;
      })
      .join("");
    return `<table><thead><tr><th>Bestellung</th><th>Produkt</th><th>E-Mail</th><th>Status</th><th></th></tr></thead><tbody>${rows}</tbody></table>`;
  }

  /** A list, not table rows: the end-to-end tests find an order's row by the buyer's e-mail. */
  function notificationsList(): string {
    if (sent.length === 0) {
      return "<p>Noch keine Benachrichtigungen.</p>";
    }
    const items = sent
      .map((n) => {
        const repeat = n.resendOf ? ` (Wiederholung von #${n.resendOf})` : "";
        const text = `#${n.id} ${n.sentAt.toISOString()} ${n.event} Bestellung ${n.orderId} Transaktion ${n.transactionId}${repeat}: ${n.answer}`;
        return `<li>${escapeHtml(text)}<form method="post" action="/resend">${hidden({ id: String(n.id) })}<button type="submit">Erneut senden</button></form></li>`;
      })
      .join("");
    return `<ol class="sent" reversed>${items}</ol>`;
  }

  const startPage = () =>
    page(
      "Testkasse: Bestellungen",
      `<h1>Testkasse: Bestellungen</h1>${ordersTable()}<h2>Gesendete Benachrichtigungen</h2>${notificationsList()}`,
    );

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://simulator");
    const route = `${req.method} ${url.pathname}`;
    const handle = async () => {
      if (req.method === "GET" && url.pathname.startsWith("/product/")) {
        const productId = decodeURIComponent(url.pathname.slice("/product/".length));
        send(res, 200, productPage(productId, url.searchParams));
      } else if (route === "POST /pay") {
        await pay(await readForm(req), res);
      } else if (route === "POST /cancel") {
        redirect(res, `${options.appUrl.replace(/\/$/, "")}/`);
      } else if (route === "POST /refund" || route === "POST /chargeback") {
        await reverse(url.pathname, await readForm(req));
        redirect(res, "/");
      } else if (route === "POST /resend") {
        await resend(Number((await readForm(req)).id));
        redirect(res, "/");
      } else if (route === "GET /") {
        send(res, 200, startPage());
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
  // in the background: the API usually starts after the simulator
  const stop = new AbortController();
  const validated = checkIpnUrl(options.ipnUrl, {
    timeoutMs: options.validateTimeoutMs ?? 60_000,
    intervalMs: options.validateIntervalMs ?? 1_000,
    signal: stop.signal,
    log,
  });
  return {
    url,
    productUrl: `${url}/product/`,
    validated,
    notifications: () => sent,
    close: async () => {
      stop.abort();
      await validated;
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}
