import { PAYMENT_OUTCOMES } from "@app/shared";
import { Counter, Registry } from "prom-client";
import { AppError } from "../lib/app-error";

/**
 * The process's own series (ADR 0101): one API process is one instance, so the counters that services
 * move live here, once per process, and every app of the process (tests build several) shows them. The
 * series of one app (its requests, its database pool) are in `plugin.ts`.
 */
export const processRegistry = new Registry();

/** How a password step ended: a session, a second factor asked, or the reason of the refusal. */
export const LOGIN_OUTCOMES = [
  "session",
  "two_factor_required",
  "invalid_credentials",
  "rate_limited",
  "email_not_confirmed",
  "account_disabled",
  "password_not_set",
  "failed",
] as const;
export type LoginOutcome = (typeof LOGIN_OUTCOMES)[number];

/** What a payment notification came to: the outcomes of `payment_notifications`, and the two before it. */
export const IPN_OUTCOMES = [...PAYMENT_OUTCOMES, "invalid_signature", "connection_test", "failed"] as const;
export type IpnOutcome = (typeof IPN_OUTCOMES)[number];

const logins = new Counter({
  name: "kongress_logins_total",
  help: "Password sign-ins by outcome (session, two_factor_required, or the reason of the refusal)",
  labelNames: ["outcome"],
  registers: [processRegistry],
});
const ipnNotifications = new Counter({
  name: "kongress_ipn_notifications_total",
  help: "Digistore24 payment notifications by outcome",
  labelNames: ["outcome"],
  registers: [processRegistry],
});
// every outcome shows from the start (at 0), so a rate over a fresh series is not missing
for (const outcome of LOGIN_OUTCOMES) {
  logins.inc({ outcome }, 0);
}
for (const outcome of IPN_OUTCOMES) {
  ipnNotifications.inc({ outcome }, 0);
}

/** The refusals of `login` (services/auth/session.ts) by the error it throws. */
function refusalOf(error: unknown): LoginOutcome {
  if (!(error instanceof AppError)) {
    return "failed";
  }
  if (error.code === "UNAUTHORIZED") {
    return "invalid_credentials";
  }
  if (error.code === "TOO_MANY_REQUESTS") {
    return "rate_limited";
  }
  const forbidden: Record<string, LoginOutcome> = {
    EMAIL_NOT_CONFIRMED: "email_not_confirmed",
    "account disabled": "account_disabled",
    "migrated account without password": "password_not_set",
  };
  return (error.code === "FORBIDDEN" && forbidden[error.message]) || "failed";
}

/** Counts a password step by how it ends and hands its result on unchanged. */
export function countedLogin<T extends object>(attempt: Promise<T>): Promise<T> {
  return attempt.then(
    (result) => {
      logins.inc({ outcome: "twoFactorRequired" in result ? "two_factor_required" : "session" });
      return result;
    },
    (error: unknown) => {
      logins.inc({ outcome: refusalOf(error) });
      throw error;
    },
  );
}

export function countIpn(outcome: IpnOutcome): void {
  ipnNotifications.inc({ outcome });
}
