import { describe, expect, it } from "vitest";
import { decideOrder, PAYMENT_EVENT_EFFECTS, paymentEffect } from "./payment-events";

describe("paymentEffect: one row per Digistore24 event", () => {
  it.each([
    ["on_payment", { kind: "grant" }],
    ["on_refund", { kind: "end", reason: "refund" }],
    ["on_chargeback", { kind: "end", reason: "chargeback" }],
    ["payment_denial", { kind: "end", reason: "denial" }],
    ["on_payment_missed", { kind: "record" }],
    ["on_rebill_cancelled", { kind: "record" }],
    ["on_rebill_resumed", { kind: "record" }],
    ["last_paid_day", { kind: "record" }],
    ["on_affiliation", { kind: "record" }],
    ["something_new", { kind: "record" }],
    ["", { kind: "record" }],
    ["toString", { kind: "record" }],
    ["__proto__", { kind: "record" }],
  ])("%s", (event, effect) => {
    expect(paymentEffect(event)).toEqual(effect);
  });

  it("the table names exactly the documented events", () => {
    expect(Object.keys(PAYMENT_EVENT_EFFECTS).sort()).toEqual(
      [
        "last_paid_day",
        "on_affiliation",
        "on_chargeback",
        "on_payment",
        "on_payment_missed",
        "on_rebill_cancelled",
        "on_rebill_resumed",
        "on_refund",
        "payment_denial",
      ].sort(),
    );
  });
});

describe("decideOrder", () => {
  it("nothing to decide without a payment or an ending event", () => {
    expect(decideOrder([])).toBeNull();
    expect(decideOrder(["on_payment_missed", "last_paid_day", "unknown"])).toBeNull();
  });

  it("a payment grants; duplicates and recorded-only events change nothing", () => {
    expect(decideOrder(["on_payment"])).toEqual({ status: "paid" });
    expect(decideOrder(["on_payment", "on_payment", "on_rebill_resumed", "on_affiliation"])).toEqual({
      status: "paid",
    });
  });

  it.each([
    ["on_refund", "refund"],
    ["on_chargeback", "chargeback"],
    ["payment_denial", "denial"],
  ] as const)("%s ends the order for good, before or after the payment", (event, reason) => {
    const ended = { status: "canceled", endReason: reason };
    expect(decideOrder(["on_payment", event])).toEqual(ended);
    expect(decideOrder([event, "on_payment"])).toEqual(ended);
    expect(decideOrder(["on_payment", event, "on_payment", "on_payment"])).toEqual(ended);
    expect(decideOrder([event])).toEqual(ended);
  });

  it("keeps the reason of the first ending event", () => {
    expect(decideOrder(["on_payment", "on_refund", "on_chargeback"])).toEqual({
      status: "canceled",
      endReason: "refund",
    });
    expect(decideOrder(["on_chargeback", "on_refund"])).toEqual({
      status: "canceled",
      endReason: "chargeback",
    });
  });
});
