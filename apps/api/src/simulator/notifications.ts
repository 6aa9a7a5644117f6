import { randomBytes, randomInt } from "node:crypto";
import { fullFieldSet } from "./digistore-fields";

export interface Buyer {
  email: string;
  firstName: string;
  lastName: string;
}

export type Reversal = "on_refund" | "on_chargeback";

/** Digistore24 numbers transactions; a random start keeps two simulator runs apart in one database. */
export function transactionIds(): () => string {
  let next = randomInt(100_000_000, 900_000_000);
  return () => String(next++);
}

function stamp(now: Date) {
  const iso = now.toISOString();
  return {
    date: iso.slice(0, 10),
    time: iso.slice(11, 19),
    dateTime: `${iso.slice(0, 10)} ${iso.slice(11, 19)}`,
  };
}

/**
 * A payment as Digistore24 announces it: the full field set, most of it empty, with a German buyer whose
 * name and address carry umlauts and ß (the visitor's own name when the product URL brought one).
 */
export function paymentFields(input: {
  productId: string;
  buyer: Buyer;
  custom: string;
  voucher: string;
  orderItemId: string;
  transactionId: string;
  now?: Date;
}): Record<string, string> {
  const { date, time, dateTime } = stamp(input.now ?? new Date());
  const firstName = input.buyer.firstName || "Jürgen";
  const lastName = input.buyer.lastName || "Müßig";
  return fullFieldSet({
    event: "on_payment",
    event_label: "Zahlung",
    api_mode: "live",
    ipn_version: "1.2",
    language: "de",
    order_id: `SIM-${randomBytes(4).toString("hex").toUpperCase()}`,
    order_item_id: input.orderItemId,
    order_date: date,
    order_time: time,
    order_date_time: dateTime,
    order_type: "normal",
    order_is_paid: "Y",
    order_billing_status: "completed",
    product_id: input.productId,
    product_ids: input.productId,
    product_name: `Testprodukt ${input.productId} für Kongress & Paket`,
    product_language: "de",
    product_delivery_type: "digital",
    quantity: "1",
    transaction_id: input.transactionId,
    transaction_type: "payment",
    transaction_date: dateTime,
    transaction_processed_at: dateTime,
    transaction_amount: "49.00",
    transaction_currency: "EUR",
    payment_id: `PAY-${randomBytes(5).toString("hex")}`,
    pay_method: "creditcard",
    pay_sequence_no: "1",
    billing_type: "single_payment",
    billing_status: "completed",
    amount: "49.00",
    amount_brutto: "49.00",
    amount_netto: "41.18",
    amount_vat: "7.82",
    amount_vendor: "37.40",
    amount_fee: "3.78",
    vat_rate: "19.00",
    currency: "EUR",
    product_amount: "49.00",
    product_netto_amount: "41.18",
    product_vat_amount: "7.82",
    product_txn_amount: "49.00",
    product_txn_netto_amount: "41.18",
    product_txn_vat_amount: "7.82",
    custom: input.custom,
    voucher_code: input.voucher,
    email: input.buyer.email,
    buyer_email: input.buyer.email,
    buyer_first_name: firstName,
    buyer_last_name: lastName,
    buyer_id: String(randomInt(1_000_000, 9_999_999)),
    address_salutation: "Herr",
    address_first_name: firstName,
    address_last_name: lastName,
    address_email: input.buyer.email,
    address_street: "Königsallee-Straße 12",
    address_street_name: "Königsallee-Straße",
    address_street_number: "12",
    address_zipcode: "80331",
    address_city: "München",
    address_country: "DE",
    address_country_name: "Deutschland",
    country: "DE",
    is_gdpr_country: "Y",
    merchant_name: "Kongress-Veranstalter Süd GmbH",
    merchant_id: "4711",
    refund_days: "14",
  });
}

/**
 * A refund or chargeback: a transaction of its own (new `transaction_id`) on the same order, pointing at
 * the payment it reverses with `parent_transaction_id`.
 */
export function reversalFields(
  payment: Record<string, string>,
  event: Reversal,
  transactionId: string,
  now = new Date(),
): Record<string, string> {
  const { dateTime } = stamp(now);
  const refund = event === "on_refund";
  return {
    ...payment,
    event,
    event_label: refund ? "Erstattung" : "Rückbuchung",
    transaction_id: transactionId,
    parent_transaction_id: payment.transaction_id ?? "",
    transaction_type: refund ? "refund" : "chargeback",
    transaction_date: dateTime,
    transaction_processed_at: dateTime,
    billing_status: refund ? "refunded" : "chargeback",
    order_billing_status: refund ? "refunded" : "chargeback",
    order_is_paid: "N",
  };
}
