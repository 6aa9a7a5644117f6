import type { ErrorBody, ErrorCode } from "./errors";
import { MSG } from "./messages";

/** A refusal with a title of its own: its error code and the `{title, detail}` its dialog shows. */
export interface Refusal extends ErrorBody {
  code: ErrorCode;
}

/**
 * The refusals that carry a title of their own (every other refusal takes its code's title from the API's
 * code table). The title is the spec's text where the spec gives one (section 8); the detail says what
 * happened and what to do next, and never repeats the title: a dialog of "Kongress nicht gefunden" over
 * "Kongress nicht gefunden" leaves the visitor where they were. The API throws them with `refuse()`
 * (`apps/api/src/lib/app-error.ts`).
 */
export const REFUSALS = {
  // spec section 8: the content page says "Kongress", the other congress screens "Veranstaltung"
  // (a hidden event is answered the same way, so "wurde entfernt" fits it too: ADR 0058)
  congressNotFound: {
    code: "NOT_FOUND",
    title: MSG.congressNotFound,
    detail:
      "Der Kongress existiert nicht oder wurde entfernt. In Ihrer Übersicht finden Sie alle aktuellen Kongresse.",
  },
  unknownCongress: {
    code: "NOT_FOUND",
    title: MSG.unknownCongress,
    detail:
      "Die Veranstaltung existiert nicht oder wurde entfernt. In Ihrer Übersicht finden Sie alle aktuellen Veranstaltungen.",
  },
  // ours: cancelling a participation that is gone (cancelled in another tab, or the event removed)
  participationNotFound: {
    code: "NOT_FOUND",
    title: "Teilnahme nicht gefunden",
    detail:
      "Diese Teilnahme besteht nicht mehr: Sie wurde bereits storniert, oder die Veranstaltung wurde entfernt. Ihre Übersicht zeigt den aktuellen Stand.",
  },
  alreadyParticipating: {
    code: "CONFLICT",
    title: MSG.alreadyParticipating,
    detail: "Sie sind für diese Veranstaltung bereits angemeldet. Sie finden sie in Ihrer Übersicht.",
  },
  ticketRequired: { code: "FORBIDDEN", title: MSG.ticketRequiredTitle, detail: MSG.ticketRequired },
  congressOver: { code: "FORBIDDEN", title: MSG.congressOverTitle, detail: MSG.congressOver },
  congressNotStarted: {
    code: "FORBIDDEN",
    title: MSG.congressNotStartedTitle,
    detail: MSG.congressNotStarted,
  },
  notParticipating: { code: "FORBIDDEN", title: MSG.notParticipatingTitle, detail: MSG.notParticipating },
  // spec section 8: "package missing or other error: 'Ein Fehler ist aufgetreten'"
  packageNotFound: {
    code: "NOT_FOUND",
    title: MSG.defaultErrorTitle,
    detail:
      "Dieses Kongresspaket gibt es nicht oder nicht mehr. In Ihrer Übersicht finden Sie alle angebotenen Kongresspakete.",
  },
  // the password is compared exactly (ADR 0019)
  wrongPackagePassword: {
    code: "FORBIDDEN",
    title: MSG.wrongPassword,
    detail:
      "Das eingegebene Passwort stimmt nicht. Bitte achten Sie auf Groß- und Kleinschreibung und versuchen Sie es erneut.",
  },
  productNotFound: { code: "NOT_FOUND", title: MSG.defaultErrorTitle, detail: MSG.productNotFound },
  productNotOffered: { code: "FORBIDDEN", title: MSG.defaultErrorTitle, detail: MSG.productNotOffered },
  // spec section 8: the server's "Unknown user or invalid credentials." translated
  loginInvalid: { code: "UNAUTHORIZED", title: MSG.loginServerInvalidTranslated, detail: MSG.loginInvalid },
  confirmMailInvalid: { code: "BAD_REQUEST", title: MSG.confirmMailFailed, detail: MSG.confirmMailInvalid },
  emailNotConfirmed: { code: "FORBIDDEN", title: MSG.emailNotConfirmedTitle, detail: MSG.emailNotConfirmed },
  migrationNeedsPassword: {
    code: "FORBIDDEN",
    title: MSG.migrationNeedsPasswordTitle,
    detail: MSG.migrationNeedsPassword,
  },
  signInLinkInvalid: {
    code: "BAD_REQUEST",
    title: MSG.signInLinkInvalidTitle,
    detail: MSG.signInLinkInvalid,
  },
} as const satisfies Record<string, Refusal>;

export type RefusalName = keyof typeof REFUSALS;
