import type { z } from "zod";
import "./zod-locale";
import { SEARCH_MAX } from "./constants";
import { zChoice, zForm, zSearch } from "./field-text";
import { ZPage } from "./paging";
import { PAYMENT_OUTCOME_LABELS, PAYMENT_OUTCOMES, type PaymentOutcome } from "./payment-events";

/**
 * One page of the support view "Zahlungsmeldungen", newest first: `orderNumber` matches the whole order
 * number (any case), `email` the buyer's e-mail in the notification or the e-mail of the account named in
 * `custom` (contains, any case).
 */
export const ZPaymentNotificationListInput = zForm({
  page: ZPage,
  orderNumber: zSearch(SEARCH_MAX.notificationOrder),
  email: zSearch(SEARCH_MAX.notificationEmail),
  outcome: zChoice(PAYMENT_OUTCOMES).optional(),
});
export type TPaymentNotificationListInput = z.input<typeof ZPaymentNotificationListInput>;

/** The German label of an outcome; old rows may carry another value ("received", "failed"), shown as is. */
export const paymentOutcomeLabel = (outcome: string): string =>
  Object.hasOwn(PAYMENT_OUTCOME_LABELS, outcome)
    ? PAYMENT_OUTCOME_LABELS[outcome as PaymentOutcome]
    : outcome;

export const MSG_PAYMENT_NOTIFICATIONS = {
  notFound: "Die Zahlungsmeldung wurde nicht gefunden.",
} as const;
