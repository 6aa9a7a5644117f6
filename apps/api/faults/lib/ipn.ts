import { digistoreSignature } from "../../src/services/commerce/signature";
import { type Timed, timedFetch } from "./api-process";

export type Category = "pac" | "tic" | "ticpac";

export interface Purchase {
  userId: number;
  email: string;
  digistoreHash: string;
  cat: Category;
  /** our id: the package for pac, the congress for tic and ticpac */
  pid: number;
  /** the checkout product id */
  productId: number;
  orderId: string;
  transactionId: string;
}

/** A notification as Digistore24 sends it (see services/commerce/commerce.int.test.ts), signed. */
export function signedIpn(p: Purchase, event: string, passphrase: string): Record<string, string> {
  const fields = {
    event,
    api_mode: "live",
    order_id: p.orderId,
    order_item_id: "1",
    product_id: String(p.productId),
    transaction_id: p.transactionId,
    payment_id: `PAY-${p.transactionId}`,
    amount: "49.00",
    currency: "EUR",
    email: p.email,
    buyer_email: p.email,
    buyer_first_name: "Jörg Peter",
    buyer_last_name: "Müller-Lüdenscheidt",
    product_name: "Kongress + Paket (50% Rabatt)",
    custom: `uid-${p.digistoreHash}|pid-${p.pid}|cat-${p.cat}`,
  };
  return { ...fields, sha_sign: digistoreSignature(fields, passphrase) };
}

/** Posts one notification like the provider: form-encoded; delivered only on 200 with a body starting OK. */
export async function postIpn(baseUrl: string, fields: Record<string, string>): Promise<Timed> {
  return timedFetch(
    `${baseUrl}/api/digistore/ipn`,
    {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    },
    15_000,
  );
}

export const delivered = (answer: Timed) => answer.status === 200 && answer.body.startsWith("OK");
