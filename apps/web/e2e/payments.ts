/**
 * Payment notifications sent by a test itself, faked at the wire like Digistore24 sends them: the simulator's
 * field set, signed with this run's passphrase (playwright.config.ts), posted to the API's IPN endpoint. For
 * states the checkout simulator does not produce on its own, e.g. a visitor back before the notification.
 */
import type { APIRequestContext } from "@playwright/test";
import { expect } from "@playwright/test";
import { digistoreSignature } from "../../api/src/services/commerce/signature";
import { paymentFields } from "../../api/src/simulator/notifications";

let transaction = 700_000_000 + (process.pid % 1000) * 10_000;

export async function sendPayment(
  request: APIRequestContext,
  payment: { digistoreHash: string; category: "pac" | "tic" | "ticpac"; id: number; productId: number },
): Promise<void> {
  const fields = paymentFields({
    productId: String(payment.productId),
    buyer: { email: "", firstName: "", lastName: "" },
    custom: `uid-${payment.digistoreHash}|pid-${payment.id}|cat-${payment.category}`,
    voucher: "",
    orderItemId: "1",
    transactionId: String(++transaction),
  });
  const passphrase = process.env.E2E_IPN_PASSPHRASE ?? "";
  const answer = await request.post("/api/digistore/ipn", {
    form: { ...fields, sha_sign: digistoreSignature(fields, passphrase) },
  });
  expect(`${answer.status()} ${await answer.text()}`).toBe("200 OK");
}
