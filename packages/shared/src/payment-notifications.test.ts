import { describe, expect, it } from "vitest";
import { PAYMENT_OUTCOMES } from "./payment-events";
import { paymentOutcomeLabel, ZPaymentNotificationListInput } from "./payment-notifications";

describe("payment notifications support view", () => {
  it("labels every outcome in German and shows an old row's value as stored", () => {
    for (const outcome of PAYMENT_OUTCOMES) {
      expect(paymentOutcomeLabel(outcome)).not.toBe(outcome);
    }
    expect(paymentOutcomeLabel("received")).toBe("received");
    expect(paymentOutcomeLabel("failed")).toBe("failed");
    expect(paymentOutcomeLabel("toString")).toBe("toString");
  });

  it("defaults to the first page without filters and refuses an unknown outcome", () => {
    expect(ZPaymentNotificationListInput.parse({})).toEqual({ page: 1, orderNumber: "", email: "" });
    expect(ZPaymentNotificationListInput.parse({ orderNumber: " A1 ", page: "2" })).toMatchObject({
      orderNumber: "A1",
      page: 2,
    });
    expect(ZPaymentNotificationListInput.safeParse({ outcome: "received" }).success).toBe(false);
  });
});
