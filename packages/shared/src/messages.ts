/**
 * German texts of the spec, copied exactly (including the spec's own spelling, e.g. "Pflichfeld").
 * Texts the spec leaves open are marked "ours" and listed in docs/decisions.md.
 */
export const MSG = {
  defaultErrorTitle: "Ein Fehler ist aufgetreten",
  defaultErrorDetail: "Ein interner Server-Fehler ist aufgetreten",

  // ours: generic answers of the REST layer (docs/decisions.md)
  validationTitle: "Ungültige Eingabe",
  unauthorizedTitle: "Nicht angemeldet!",
  unauthorizedDetail: "Bitte melden Sie sich an.",
  forbiddenTitle: "Keine Berechtigung",
  forbiddenDetail: "Sie haben keine Berechtigung für diese Aktion.",
  notFoundTitle: "Nicht gefunden",
  notFoundDetail: "Die angeforderte Ressource wurde nicht gefunden.",
  tooManyRequestsTitle: "Zu viele Anfragen",
  tooManyRequestsDetail: "Bitte warten Sie einen Moment und versuchen Sie es dann erneut.",
  payloadTooLargeDetail: "Die gesendeten Daten sind zu groß.",

  // spec section 5
  emailRequired: "E-Mail ist ein Pflichtfeld",
  passwordRequired: "Passwort ist ein Pflichfeld",
  firstnameRequired: "Vorname ist ein Pflichtfeld",
  lastnameRequired: "Nachname ist ein Pflichfeld",
  dataProtectionRequired: "Bitte nehmen Sie die Datenschutzerklärung zur Kenntnis",
  passwordConfirmRequired: "Bite bestätigen Sie Ihr neues Passwort",
  passwordsDoNotMatch: "Die beiden Passwörter stimmen nicht überein",
  migrationPasswordRequired: "Das Passwort ist ein Pflichfeld!",
  passwordMinLength: "Bitte benutzen Sie ein Passwort mit mindestens 8 Zeichen.",
  migrationPasswordConfirmRequired: "Bitte bestätigen Sie Ihr Passwort!",
  migrationPasswordsDoNotMatch: "Die Inhalte der beiden Passwort-Felder müssen übereinstimmen!",
  wrongPassword: "Falsches Passwort",
  deleteConfirmTitle: "Sind Sie sich sicher?",
  deleteConfirmButton: "Ja, ich bin mir sicher",

  // spec section 8
  loginInvalid:
    "Die angegebene Kombination aus E-Mail-Adresse und Passwort ist ungültig. Bitte versuchen Sie es erneut.",
  loginServerInvalid: "Unknown user or invalid credentials.",
  loginServerInvalidTranslated: "Die Zugangsdaten sind nicht korrekt.",
  congressesLoadFailed: "Die aktuellen Kongresse konnten nicht geladen werden!",
  confirmMailFailed: "Fehler bei der E-Mail Bestätigung",
  congressNotFound: "Kongress nicht gefunden",
  eventNotFound: "Veranstaltung nicht gefunden",
  alreadyParticipating: "Sie nehmen bereits teil",
  packageNotBought: "Kongresspaket nicht erworben",
  notLoggedIn: "Nicht angemeldet!",
  adminLoadFailedTitle: "Fehler beim Laden der Daten",
  adminDeleteFailedTitle: "Fehler beim Löschen der Daten",
  userSaved: "Benutzer:in wurde erfolgreich gespeichert.",
  userDeleted: "Benutzer:in wurde gelöscht.",
  contentSaved: "Der Kongressinhalt wurde erfolgreich gespeichert.",
  contentDeleted: "Der Kongressinhalt wurde gelöscht.",
  mailTemplateSaved: "E-Mail Template wurde erfolgreich gespeichert.",
  mailTemplatesCopied: "E-Mail-Templates wurden erfolgreich kopiert.",

  // ours: shell
  pageNotFoundTitle: "Seite nicht gefunden",
  pageNotFoundDetail: "Die gesuchte Seite wurde leider nicht gefunden.",
} as const;

export type MessageKey = keyof typeof MSG;
