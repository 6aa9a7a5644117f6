/** IPN events that make an order paid, that withdraw it, and everything else (recorded only). */
export const PAYMENT_EVENTS = new Set(["on_payment"]);
export const CANCEL_EVENTS = new Set(["on_refund", "on_chargeback", "payment_denial"]);

export interface OrderEvent {
  event: string;
  /** Digistore's transaction id; one payment and its refund share it */
  transactionId: string;
}

/**
 * The status of an order from every notification received for its order_id, in any order and with any
 * duplicates: paid while some payment has not been refunded, charged back or denied; otherwise canceled.
 * A late duplicate of a payment that was already withdrawn changes nothing; a newer payment (another
 * transaction) makes the order paid again. Null when nothing decides yet.
 */
export function orderStatus(history: OrderEvent[]): "paid" | "canceled" | null {
  const paid = new Set<string>();
  const withdrawn = new Set<string>();
  for (const { event, transactionId } of history) {
    if (PAYMENT_EVENTS.has(event)) {
      paid.add(transactionId);
    } else if (CANCEL_EVENTS.has(event)) {
      withdrawn.add(transactionId);
    }
  }
  if ([...paid].some((tx) => !withdrawn.has(tx))) {
    return "paid";
  }
  return paid.size > 0 || withdrawn.size > 0 ? "canceled" : null;
}
