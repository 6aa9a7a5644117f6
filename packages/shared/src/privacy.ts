/**
 * DSGVO self-service (profile page) and the admin-editable legal pages. No zod here: visitor pages import
 * these texts; the input schemas are in privacy-input.ts.
 */

export const CONSENT_KINDS = ["privacy-policy", "newsletter"] as const;
export type ConsentKind = (typeof CONSENT_KINDS)[number];
export const CONSENT_KIND_LABELS: Record<ConsentKind, string> = {
  "privacy-policy": "Datenschutzerklärung",
  newsletter: "Newsletter",
};

export const CONSENT_SOURCES = ["registration", "profile"] as const;
export type ConsentSource = (typeof CONSENT_SOURCES)[number];
export const CONSENT_SOURCE_LABELS: Record<ConsentSource, string> = {
  registration: "bei der Registrierung",
  profile: "im Profil",
};

export const LEGAL_PAGES = ["datenschutz", "impressum", "barrierefreiheit"] as const;
export type LegalPageSlug = (typeof LEGAL_PAGES)[number];
export const LEGAL_PAGE_TITLES: Record<LegalPageSlug, string> = {
  datenschutz: "Datenschutzerklärung",
  impressum: "Impressum",
  barrierefreiheit: "Erklärung zur Barrierefreiheit",
};

/** A deleted account keeps orders; its name and address are replaced by these (decision 37). */
export const DELETED_ACCOUNT_NAME = { firstname: "Gelöschtes", lastname: "Konto" } as const;
export const deletedAccountEmail = (userId: number) => `geloescht-${userId}@konto.invalid`;

export const MSG_PRIVACY = {
  passwordRequired: "Bitte geben Sie zur Bestätigung Ihr Passwort ein.",
  passwordWrong: "Das Passwort ist nicht korrekt.",
  deleteTitle: "Konto löschen",
  lastAdmin:
    "Dieses Konto ist das letzte aktive Administrationskonto und kann nicht gelöscht werden. Bitte ernennen Sie zuerst eine weitere Person zur Administration.",
  accountDeleted: "Ihr Konto wurde gelöscht.",
  newsletterOn: "Sie erhalten ab jetzt unseren Newsletter.",
  newsletterOff: "Sie haben den Newsletter abbestellt. Ihre Einwilligung ist widerrufen.",
  legalPageSaved: "Die Seite wurde gespeichert.",
  legalPageEmpty: "Bitte geben Sie einen Text ein.",
  legalPageTooLong: "Der Text ist zu lang (höchstens 200.000 Zeichen).",
} as const;
