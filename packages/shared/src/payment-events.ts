/**
 * What each Digistore24 notification does to an order and its access: the one decision table (ADR 0025).
 * Our products are one-off purchases, so a payment grants, a refund, chargeback or denial ends the order
 * for good, and everything else (rebills, missed payments, affiliations, events we do not know) is only
 * recorded and answered `OK`.
 */
export const END_REASONS = ["refund", "chargeback", "denial"] as const;
export type EndReason = (typeof END_REASONS)[number];

/** Why an order no longer gives access, as the admin order tables show it. */
export const END_REASON_LABELS: Record<EndReason, string> = {
  refund: "Erstattung",
  chargeback: "Rückbuchung",
  denial: "Zahlung abgelehnt",
};

export type PaymentEffect = { kind: "grant" } | { kind: "end"; reason: EndReason } | { kind: "record" };

export const PAYMENT_EVENT_EFFECTS: Readonly<Record<string, PaymentEffect>> = {
  on_payment: { kind: "grant" },
  on_refund: { kind: "end", reason: "refund" },
  on_chargeback: { kind: "end", reason: "chargeback" },
  payment_denial: { kind: "end", reason: "denial" },
  on_payment_missed: { kind: "record" },
  on_rebill_cancelled: { kind: "record" },
  on_rebill_resumed: { kind: "record" },
  last_paid_day: { kind: "record" },
  on_affiliation: { kind: "record" },
};

/** The effect of an event by its raw name; an unknown event is recorded only. */
export function paymentEffect(event: string): PaymentEffect {
  return Object.hasOwn(PAYMENT_EVENT_EFFECTS, event)
    ? (PAYMENT_EVENT_EFFECTS[event] ?? { kind: "record" })
    : { kind: "record" };
}

export type OrderDecision = { status: "paid" } | { status: "canceled"; endReason: EndReason } | null;

/**
 * An order's state from the events of every notification received for it (one `order_id` and product),
 * in order of arrival, with any duplicates: ended as soon as any refund, chargeback or denial arrived,
 * whatever came before or after (the reason is the first ending event's); else paid once a payment
 * arrived; else nothing to decide (null).
 */
export function decideOrder(events: readonly string[]): OrderDecision {
  let granted = false;
  for (const event of events) {
    const effect = paymentEffect(event);
    if (effect.kind === "end") {
      return { status: "canceled", endReason: effect.reason };
    }
    granted ||= effect.kind === "grant";
  }
  return granted ? { status: "paid" } : null;
}

/** What became of a notification, as the support view lists and filters it. */
export const PAYMENT_OUTCOMES = ["processed", "recorded", "ignored", "conflict"] as const;
export type PaymentOutcome = (typeof PAYMENT_OUTCOMES)[number];
export const PAYMENT_OUTCOME_LABELS: Record<PaymentOutcome, string> = {
  processed: "verarbeitet",
  recorded: "nur protokolliert",
  ignored: "ignoriert",
  conflict: "Konflikt: anderes Konto",
};
