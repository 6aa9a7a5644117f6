import { describe, expect, it } from "vitest";
import { orderStatus } from "./order-state";

const pay = (transactionId = "T1") => ({ event: "on_payment", transactionId });
const refund = (transactionId = "T1") => ({ event: "on_refund", transactionId });

describe("orderStatus", () => {
  it("is paid after a payment, canceled after its refund, chargeback or denial", () => {
    expect(orderStatus([pay()])).toBe("paid");
    expect(orderStatus([pay(), refund()])).toBe("canceled");
    expect(orderStatus([pay(), { event: "on_chargeback", transactionId: "T1" }])).toBe("canceled");
    expect(orderStatus([pay(), { event: "payment_denial", transactionId: "T1" }])).toBe("canceled");
  });

  it("does not let a late duplicate payment undo a refund, in any order of arrival", () => {
    expect(orderStatus([pay(), refund(), pay()])).toBe("canceled");
    expect(orderStatus([refund(), pay()])).toBe("canceled");
    expect(orderStatus([refund(), refund(), pay(), pay()])).toBe("canceled");
  });

  it("is paid again after a newer payment", () => {
    expect(orderStatus([pay("T1"), refund("T1"), pay("T2")])).toBe("paid");
  });

  it("ignores events that neither pay nor withdraw", () => {
    expect(orderStatus([{ event: "connection_test", transactionId: "" }])).toBeNull();
    expect(orderStatus([pay(), { event: "on_rebill_cancelled", transactionId: "T1" }])).toBe("paid");
    expect(orderStatus([{ event: "on_payment_missed", transactionId: "T9" }])).toBeNull();
  });
});
