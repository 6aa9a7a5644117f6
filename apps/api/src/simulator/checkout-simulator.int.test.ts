import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { schema } from "@app/db";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { digistoreSignature, verifyDigistoreSignature } from "../services/commerce/signature";
import { createCongress, createPackage, createUser } from "../testing/builders";
import { createTestApp, type TestApp } from "../testing/harness";
import { type Simulator, type SimulatorLog, startCheckoutSimulator } from "./checkout-simulator";
import { DIGISTORE_IPN_FIELDS } from "./digistore-fields";

const { congressPackageOrders, paymentNotifications } = schema;

/** Collects the simulator's log lines instead of printing them. */
function captureLog(): SimulatorLog & { lines: string[] } {
  const lines: string[] = [];
  return { lines, info: (m) => lines.push(`info ${m}`), warn: (m) => lines.push(`warn ${m}`) };
}

/** A tiny endpoint that keeps the raw bytes of every POST and answers like ours (or with `status`). */
async function rawEndpoint(status = 200): Promise<{ url: string; bodies: Buffer[]; server: Server }> {
  const bodies: Buffer[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) {
      chunks.push(chunk as Buffer);
    }
    if (req.method === "POST") {
      bodies.push(Buffer.concat(chunks));
    }
    res
      .writeHead(status, { "content-type": "text/plain; charset=utf-8" })
      .end(status === 200 ? "OK" : "nope");
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/ipn`, bodies, server };
}

const closeServer = (server: Server) => new Promise<void>((done) => server.close(() => done()));

const form = (url: string, fields: Record<string, string>) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });

let t: TestApp;
let sim: Simulator;
const log = captureLog();
beforeAll(async () => {
  t = await createTestApp();
  const address = await t.app.listen({ port: 0, host: "127.0.0.1" });
  sim = await startCheckoutSimulator({
    port: 0,
    ipnUrl: `${address}/api/digistore/ipn`,
    appUrl: "http://app.test",
    passphrase: t.env.DIGISTORE_IPN_PASSPHRASE,
    log,
  });
});
afterAll(async () => {
  await sim?.close();
  await t?.close();
});

const db = () => t.db.db;
const received = (orderId: string) =>
  db()
    .select()
    .from(paymentNotifications)
    .where(eq(paymentNotifications.orderId, orderId))
    .orderBy(asc(paymentNotifications.id));

let bought = 0;

/** Buys a fresh package through the simulator's pay form, as the visitor's browser does. */
async function buyPackage() {
  const congress = await createCongress(db());
  const pkg = await createPackage(db(), congress.id);
  const user = await createUser(db(), { email: `sim.${Date.now()}.${++bought}@example.com` });
  const res = await form(`${sim.url}/pay`, {
    product_id: String(pkg.externalId),
    email: user.email,
    custom: `uid-${user.digistoreHash}|pid-${pkg.id}|cat-pac`,
  });
  expect(res.status).toBe(303);
  expect(res.headers.get("location")).toBe(
    `http://app.test/?custom=${encodeURIComponent(`pid-${pkg.id}|cat-pac`)}`,
  );
  const [payment] = await db()
    .select()
    .from(paymentNotifications)
    .where(eq(paymentNotifications.productId, String(pkg.externalId)));
  if (!payment?.orderId) {
    throw new Error("no payment notification reached the API");
  }
  return { user, pkg, payment: payment.payload, orderId: payment.orderId };
}

describe("checkout simulator against the real API over HTTP", { timeout: 30_000 }, () => {
  it("validates the IPN URL with a GET at start-up and logs the success once", async () => {
    await expect(sim.validated).resolves.toEqual({ ok: true, status: 200 });
    expect(log.lines.filter((line) => line.includes("geprüft"))).toHaveLength(1);
    expect(log.lines.filter((line) => line.startsWith("warn"))).toEqual([]);
  });

  it("a payment through the pay form creates a paid order; the notification has the full field set, signed", async () => {
    const { user, pkg, payment, orderId } = await buyPackage();
    const [order] = await db()
      .select()
      .from(congressPackageOrders)
      .where(eq(congressPackageOrders.userId, user.id));
    expect(order).toMatchObject({ congressPackageId: pkg.id, externalId: orderId, status: "paid" });

    const [notification] = await received(orderId);
    expect(notification).toMatchObject({ event: "on_payment", outcome: "processed", signatureValid: true });
    const names = Object.keys(payment).filter((name) => name !== "sha_sign");
    expect(names.length).toBeGreaterThanOrEqual(150);
    expect(names.sort()).toEqual([...DIGISTORE_IPN_FIELDS].sort());
    expect(names.filter((name) => payment[name] === "").length).toBeGreaterThan(50);
    expect(payment).toMatchObject({
      buyer_first_name: "Jürgen",
      buyer_last_name: "Müßig",
      address_street: expect.stringContaining("Straße"),
      address_city: "München",
    });
    // the signature covers every non-empty field, umlauts as UTF-8; a changed umlaut breaks it
    const passphrase = t.env.DIGISTORE_IPN_PASSPHRASE;
    expect(payment.sha_sign).toBe(digistoreSignature(payment, passphrase));
    expect(verifyDigistoreSignature(payment, passphrase)).toBe(true);
    expect(verifyDigistoreSignature({ ...payment, address_city: "Muenchen" }, passphrase)).toBe(false);
  });

  for (const [path, event, status] of [
    ["refund", "on_refund", "erstattet"],
    ["chargeback", "on_chargeback", "zurückgebucht"],
  ] as const) {
    it(`${path}: a new transaction on the same order, with the payment's id as parent_transaction_id`, async () => {
      const { payment, orderId } = await buyPackage();
      const res = await form(`${sim.url}/${path}`, { order_id: orderId });
      expect(res.status).toBe(303);

      const [, reversal] = await received(orderId);
      expect(reversal?.event).toBe(event);
      const fields = reversal?.payload ?? {};
      expect(fields.event).toBe(event);
      expect(fields.order_id).toBe(orderId);
      expect(fields.product_id).toBe(payment.product_id);
      expect(fields.transaction_id).toMatch(/^\d+$/);
      expect(fields.transaction_id).not.toBe(payment.transaction_id);
      expect(fields.parent_transaction_id).toBe(payment.transaction_id);
      expect(reversal?.signatureValid).toBe(true);
      // the order status after a reversal is the API's business (ADR 0025), not asserted here

      const page = await (await fetch(`${sim.url}/`)).text();
      expect(page).toContain(`<td>${status}</td>`);
      // one reversal per order: the buttons are gone and a second click sends nothing
      await form(`${sim.url}/${path === "refund" ? "chargeback" : "refund"}`, { order_id: orderId });
      expect(await received(orderId)).toHaveLength(2);
    });
  }

  it("the start page lists every notification, newest first, each with a re-send button", async () => {
    const { orderId } = await buyPackage();
    const page = await (await fetch(`${sim.url}/`)).text();
    expect(page).toContain("Erstatten");
    expect(page).toContain("Rückbuchung");
    const sent = sim.notifications();
    expect(sent[0]?.orderId).toBe(orderId);
    expect(sent.map((n) => n.id)).toEqual([...sent.map((n) => n.id)].sort((a, b) => b - a));
    expect(page.match(/Erneut senden/g)).toHaveLength(sent.length);
    expect(page.indexOf(`#${sent[0]?.id} `)).toBeLessThan(page.indexOf(`#${sent.at(-1)?.id} `));
  });

  it("re-sends an earlier notification exactly as before: same fields, same signature", async () => {
    const { orderId } = await buyPackage();
    const first = sim.notifications().find((n) => n.orderId === orderId);
    await form(`${sim.url}/resend`, { id: String(first?.id) });
    const [original, repeat] = await received(orderId);
    expect(repeat?.payload).toEqual(original?.payload);
    expect(repeat?.signatureValid).toBe(true);
    expect(sim.notifications()[0]).toMatchObject({ resendOf: first?.id, body: first?.body });
  });
});

describe("checkout simulator, raw deliveries and the URL check", { timeout: 30_000 }, () => {
  it("a re-sent notification is byte-identical to the first delivery, also after newer ones", async () => {
    const endpoint = await rawEndpoint();
    const own = await startCheckoutSimulator({
      port: 0,
      ipnUrl: endpoint.url,
      appUrl: "http://app.test",
      passphrase: "pass",
      log: captureLog(),
    });
    try {
      await form(`${own.url}/pay`, {
        product_id: "1",
        email: "a@example.com",
        custom: "uid-x|pid-1|cat-pac",
      });
      await form(`${own.url}/pay`, {
        product_id: "2",
        email: "b@example.com",
        custom: "uid-y|pid-2|cat-pac",
      });
      const firstId = own.notifications().at(-1)?.id;
      await form(`${own.url}/resend`, { id: String(firstId) });
      expect(endpoint.bodies).toHaveLength(3);
      const [first, second, third] = endpoint.bodies;
      expect(third?.equals(first ?? Buffer.alloc(0))).toBe(true);
      expect(third?.equals(second ?? Buffer.alloc(0))).toBe(false);
      // UTF-8 on the wire, percent-encoded
      expect(first?.toString("utf8")).toContain("buyer_last_name=M%C3%BC%C3%9Fig");
    } finally {
      await own.close();
      await closeServer(endpoint.server);
    }
  });

  it("warns with the status when the IPN URL answers the GET with anything but 200 OK", async () => {
    const endpoint = await rawEndpoint(404);
    const own = captureLog();
    const simulator = await startCheckoutSimulator({
      port: 0,
      ipnUrl: endpoint.url,
      appUrl: "http://app.test",
      passphrase: "pass",
      log: own,
    });
    try {
      await expect(simulator.validated).resolves.toMatchObject({ ok: false, status: 404 });
      expect(own.lines).toEqual([expect.stringMatching(/^warn IPN-URL .* nicht mit 200 OK, sondern 404/)]);
    } finally {
      await simulator.close();
      await closeServer(endpoint.server);
    }
  });

  it("retries while nothing answers, gives up with a warning, and never blocks start-up", async () => {
    const endpoint = await rawEndpoint();
    const deadUrl = endpoint.url;
    await closeServer(endpoint.server);
    const own = captureLog();
    const started = Date.now();
    const simulator = await startCheckoutSimulator({
      port: 0,
      ipnUrl: deadUrl,
      appUrl: "http://app.test",
      passphrase: "pass",
      validateTimeoutMs: 600,
      validateIntervalMs: 100,
      log: own,
    });
    expect(Date.now() - started).toBeLessThan(500);
    try {
      await expect(simulator.validated).resolves.toMatchObject({ ok: false, status: null });
      expect(own.lines).toEqual([expect.stringMatching(/^warn IPN-URL .* nicht erreichbar/)]);
    } finally {
      await simulator.close();
    }
  });

  it("succeeds once the endpoint comes up after the simulator", async () => {
    const probe = await rawEndpoint();
    const { port } = probe.server.address() as AddressInfo;
    await closeServer(probe.server);
    const own = captureLog();
    const simulator = await startCheckoutSimulator({
      port: 0,
      ipnUrl: probe.url,
      appUrl: "http://app.test",
      passphrase: "pass",
      validateIntervalMs: 100,
      log: own,
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const late = createServer((_req, res) => res.end("OK"));
    await new Promise<void>((done) => late.listen(port, "127.0.0.1", done));
    try {
      await expect(simulator.validated).resolves.toEqual({ ok: true, status: 200 });
      expect(own.lines).toHaveLength(1);
    } finally {
      await simulator.close();
      await closeServer(late);
    }
  });
});
