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

/**
 * The one allow-list of the legal pages' HTML: text formatting and links only. The API keeps nothing else
 * when a page is saved, and the web app builds nothing else when it shows one (should the sanitiser fail).
 */
export const LEGAL_HTML = {
  tags: [
    ...["p", "br", "h2", "h3", "strong", "b", "em", "i", "u", "s", "ul", "ol", "li", "blockquote"],
    ...["a", "img", "hr", "address"],
  ],
  voidTags: ["br", "hr", "img"],
  attributes: { a: ["href", "target", "rel"], img: ["src", "alt", "width", "height"] },
  linkSchemes: ["http", "https", "mailto", "tel"],
} as const;

/**
 * Images of a legal page are our own uploads, as a relative path: a legal page must not make the browser
 * contact anybody else before consent.
 */
export const isLegalImageSrc = (src: string): boolean => /^\/uploads\/images\/[\w.-]+$/.test(src);

/** A link of a legal page: a web page, an e-mail address or a phone number (never `javascript:`). */
export const isLegalLinkHref = (href: string): boolean =>
  LEGAL_HTML.linkSchemes.some((scheme) => href.toLowerCase().startsWith(`${scheme}:`));

/** A deleted account keeps orders; its name and address are replaced by these (ADR 0037). */
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
