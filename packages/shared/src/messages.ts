/** The end of both "payment not yet confirmed" notices of the checkout return: what to expect, whom to ask. */
const CHECKOUT_DELAYED_REST =
  "bei manchen Zahlarten (zum Beispiel Überweisung) dauert das länger. Sie erhalten eine E-Mail, sobald die Zahlung bestätigt ist, und finden Ihren Kauf dann hier in Ihrer Übersicht. Ist nach einem Werktag nichts eingetroffen, schreiben Sie uns bitte an support@example.com und nennen Sie die Bestellnummer aus der E-Mail von Digistore24.";

/**
 * German texts of the spec, copied exactly (including the spec's own spelling, e.g. "Pflichfeld").
 * Texts the spec leaves open are marked "ours" (ADR 0011, ADR 0023).
 */
export const MSG = {
  defaultErrorTitle: "Ein Fehler ist aufgetreten",
  defaultErrorDetail: "Ein interner Server-Fehler ist aufgetreten",

  // ours: generic answers of the REST layer (ADR 0011)
  validationTitle: "Ungültige Eingabe",
  unauthorizedTitle: "Nicht angemeldet!",
  unauthorizedDetail: "Bitte melden Sie sich an.",
  forbiddenTitle: "Keine Berechtigung",
  forbiddenDetail: "Sie haben keine Berechtigung für diese Aktion.",
  notFoundTitle: "Nicht gefunden",
  notFoundDetail: "Die angeforderte Ressource wurde nicht gefunden.",
  conflictDetail:
    "Die Daten wurden inzwischen geändert. Bitte laden Sie die Seite neu und versuchen Sie es erneut.",
  tooManyRequestsTitle: "Zu viele Anfragen",
  tooManyRequestsDetail: "Bitte warten Sie einen Moment und versuchen Sie es dann erneut.",
  payloadTooLargeDetail: "Die gesendeten Daten sind zu groß.",
  invalidValueDetail: "Die Eingabe enthält Zeichen oder Werte, die nicht verarbeitet werden können.",
  invalidJsonDetail: "Die Anfrage konnte nicht gelesen werden (ungültiges JSON).",
  badRequestDetail: "Die Anfrage konnte nicht verarbeitet werden.",
  formUnreadableDetail: "Die gesendeten Formulardaten sind unvollständig oder fehlerhaft.",
  batchRefusedDetail:
    "Diese Anfrage bündelt zu viele Aufrufe oder eine Anmeldung mit anderen Aufrufen. Bitte senden Sie die Aufrufe einzeln.",
  // ours: GET /metrics without the operators' token (ADR 0101)
  metricsTokenTitle: "Kein Zugriff auf die Metriken",
  metricsTokenDetail:
    "Die Metriken sind nur mit dem Zugangstoken des Betriebs abrufbar (Kopfzeile Authorization: Bearer und der Wert von METRICS_TOKEN).",

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
  // the content page says "Kongress" (congressNotFound), the other congress screens "Veranstaltung"
  unknownCongress: "Veranstaltung nicht gefunden",
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

  // ours: accounts
  emailInvalid: "Bitte geben Sie eine gültige E-Mail-Adresse ein.",
  passwordTooLong: "Das Passwort darf höchstens 256 Zeichen lang sein.",
  passwordHint: "Wir empfehlen mindestens acht Zeichen mit Buchstaben, Ziffern und Sonderzeichen.",
  registrationTitle: "Registrierung",
  registrationSuccessTitle: "Fast geschafft!",
  registrationSuccess:
    "Wir haben Ihnen eine E-Mail geschickt. Bitte bestätigen Sie Ihre E-Mail-Adresse über den Link in dieser E-Mail.",
  confirmMailSuccessTitle: "E-Mail-Adresse bestätigt",
  confirmMailSuccess: "Vielen Dank! Ihre E-Mail-Adresse ist bestätigt. Sie können sich jetzt anmelden.",
  confirmMailAlready: "Ihre E-Mail-Adresse ist bereits bestätigt. Sie können sich anmelden.",
  confirmMailInvalid:
    "Der Bestätigungslink ist ungültig oder abgelaufen. Sie können sich eine neue E-Mail schicken lassen.",
  emailNotConfirmedTitle: "E-Mail-Adresse nicht bestätigt",
  emailNotConfirmed:
    "Bitte bestätigen Sie zuerst Ihre E-Mail-Adresse über den Link in der E-Mail, die wir Ihnen geschickt haben.",
  returnAddressInvalid:
    "Die Adresse, zu der Sie nach der Anmeldung zurückkehren sollen, gehört nicht zu dieser Plattform.",
  resendConfirmationDone:
    "Falls für diese Adresse ein unbestätigtes Konto besteht, haben wir die Bestätigungs-E-Mail erneut verschickt.",
  accountDisabled: "Ihr Konto ist deaktiviert. Bitte wenden Sie sich an den Support.",
  migrationNeedsPasswordTitle: "Bitte legen Sie ein Passwort fest",
  migrationNeedsPassword:
    "Ihr Konto wurde auf unsere neue Plattform übertragen. Wir haben Ihnen eine E-Mail mit einem Link geschickt, über den Sie ein Passwort festlegen können.",
  forgotPasswordTitle: "Passwort vergessen",
  forgotPasswordDone:
    "Falls ein Konto mit dieser E-Mail-Adresse besteht, haben wir Ihnen einen Link zum Zurücksetzen des Passworts geschickt.",
  resetPasswordSuccessTitle: "Passwort geändert",
  resetPasswordSuccess: "Ihr Passwort wurde geändert. Sie können sich jetzt mit dem neuen Passwort anmelden.",
  resetPasswordInvalid:
    "Der Link zum Zurücksetzen ist ungültig oder abgelaufen. Bitte fordern Sie einen neuen an.",
  migrationSuccessTitle: "Passwort festgelegt",
  migrationSuccess: "Ihr Passwort wurde gespeichert. Sie können sich jetzt anmelden.",
  migrationLinkInvalid: "Der Link ist ungültig oder wurde bereits benutzt.",
  sessionExpired: "Ihre Sitzung ist abgelaufen. Bitte melden Sie sich erneut an.",

  // ours: the sign-in link by mail (ADR 0091)
  signInLinkOffer:
    "Nach vielen fehlgeschlagenen Anmeldungen nimmt Ihr Konto hier gerade keine Passwörter an. Wir können Ihnen einen Anmeldelink schicken, mit dem Sie sich in diesem Browser anmelden.",
  signInLinkAction: "Anmeldelink per E-Mail senden",
  signInLinkSent:
    "Falls ein Konto mit dieser E-Mail-Adresse besteht, haben wir Ihnen einen Anmeldelink geschickt. Er ist 15 Minuten gültig und kann einmal verwendet werden.",
  signInLinkInvalidTitle: "Anmeldelink ungültig",
  signInLinkInvalid:
    "Dieser Anmeldelink ist ungültig, abgelaufen oder wurde bereits verwendet. Bitte fordern Sie auf der Anmeldeseite einen neuen an.",

  // ours: visitor area (ADR 0023)
  supportContact: "Bitte versuchen Sie es später erneut oder schreiben Sie uns an support@example.com.",
  congressOverTitle: "Veranstaltung beendet",
  congressOver:
    "Diese Veranstaltung ist bereits beendet. Aufzeichnungen finden Sie, sofern angeboten, als Kongresspaket in Ihrer Übersicht.",
  congressNotStartedTitle: "Noch nicht gestartet",
  congressNotStarted: "Die Videos dieser Veranstaltung können Sie ab dem ersten Veranstaltungstag ansehen.",
  notParticipatingTitle: "Keine Teilnahme",
  notParticipating: "Sie sind für diese Veranstaltung nicht angemeldet. Bitte melden Sie sich zuerst an.",
  ticketRequiredTitle: "Ticket erforderlich",
  ticketRequired:
    "Für diese Veranstaltung benötigen Sie ein Ticket. Sie können es hier erwerben, danach sind Sie automatisch angemeldet.",
  participationCreatedTitle: "Anmeldung bestätigt",
  participationCreated: "Sie sind für die Veranstaltung angemeldet.",
  participationCancelTitle: "Teilnahme stornieren?",
  participationCancelQuestion: "Möchten Sie Ihre Teilnahme an dieser Veranstaltung wirklich stornieren?",
  participationCancelled: "Ihre Teilnahme wurde storniert.",
  participationCancelTicketed:
    "Die Teilnahme an einer Veranstaltung mit Ticket kann nicht hier storniert werden. Bitte wenden Sie sich an den Support.",
  packageNotAvailableYet: "Dieses Kongresspaket ist ab dem {date} verfügbar.",
  productNotFound:
    "Das gewünschte Produkt wurde nicht gefunden. In Ihrer Übersicht finden Sie alle Veranstaltungen und Kongresspakete, die Sie buchen können.",
  productNotOffered:
    "Dieses Produkt wird derzeit nicht angeboten. In Ihrer Übersicht finden Sie alle Veranstaltungen und Kongresspakete, die Sie buchen können.",
  alreadyBoughtTitle: "Bereits gekauft",
  alreadyBoughtPackage:
    "Sie haben das Kongresspaket „{name}“ bereits gekauft. Sie finden es in Ihrer Übersicht.",
  alreadyBoughtTicket:
    "Sie haben bereits ein Ticket für „{name}“ und sind für die Veranstaltung angemeldet. Ein zweites Ticket brauchen Sie nicht.",
  alreadyBoughtTicketPackage: "Sie haben Ticket und Kongresspaket für „{name}“ bereits gekauft.",
  alreadyBoughtTicketOffersPackage:
    "Ihr Ticket für „{name}“ haben Sie bereits gekauft. Das Kongresspaket können Sie einzeln dazukaufen.",
  alreadyBoughtTicketNoPackage:
    "Ihr Ticket für „{name}“ haben Sie bereits gekauft. Ein Kongresspaket gibt es zu dieser Veranstaltung nicht.",
  alreadyBoughtPackageOffersTicket:
    "Das Kongresspaket zu „{name}“ haben Sie bereits gekauft. Das Ticket können Sie einzeln dazukaufen.",
  alreadyBoughtPackageNoTicket:
    "Das Kongresspaket zu „{name}“ haben Sie bereits gekauft; ein einzelnes Ticket wird für diese Veranstaltung nicht angeboten.",
  checkoutReturnTitle: "Vielen Dank für Ihren Kauf!",
  checkoutReturnPackage:
    "Ihre Zahlung ist bestätigt: Das Kongresspaket „{name}“ ist freigeschaltet. Sie finden es hier in Ihrer Übersicht.",
  checkoutReturnTicket:
    "Ihre Zahlung ist bestätigt: Sie sind für „{name}“ angemeldet und finden die Veranstaltung hier in Ihrer Übersicht.",
  checkoutReturnTicketPackage:
    "Ihre Zahlung ist bestätigt: Sie sind für „{name}“ angemeldet, und das Kongresspaket ist freigeschaltet. Beides finden Sie hier in Ihrer Übersicht.",
  // what a payment unlocked no part of, although the purchase promised it (ADR 0083's halves)
  checkoutReturnNoPackage:
    "Ein Kongresspaket gibt es zu dieser Veranstaltung nicht; freigeschaltet ist daher nur Ihr Ticket. Bei Fragen schreiben Sie uns bitte an support@example.com.",
  checkoutReturnPackageNotIncluded:
    "Ein Kongresspaket wurde mit dieser Zahlung nicht freigeschaltet. Sollte es dazugehören, schreiben Sie uns bitte an support@example.com und nennen Sie die Bestellnummer aus der E-Mail von Digistore24.",
  checkoutReturnTicketNotIncluded:
    "Ein Ticket wurde mit dieser Zahlung nicht freigeschaltet. Sollte es dazugehören, schreiben Sie uns bitte an support@example.com und nennen Sie die Bestellnummer aus der E-Mail von Digistore24.",
  checkoutProcessingTitle: "Ihre Zahlung wird bearbeitet",
  checkoutProcessing:
    "Wir warten noch auf die Zahlungsbestätigung für „{name}“. Sobald sie eingetroffen ist, ist Ihr Kauf freigeschaltet; das dauert meist nur wenige Sekunden.",
  // the product's name has not come yet (a slow answer): no name in quotes
  checkoutProcessingUnnamed:
    "Wir warten noch auf die Bestätigung Ihrer Zahlung. Sobald sie eingetroffen ist, ist Ihr Kauf freigeschaltet; das dauert meist nur wenige Sekunden.",
  checkoutDelayedTitle: "Die Zahlungsbestätigung ist noch nicht eingetroffen",
  checkoutDelayed: `Ihre Zahlung für „{name}“ wird noch bearbeitet; ${CHECKOUT_DELAYED_REST}`,
  checkoutDelayedUnnamed: `Ihre Zahlung wird noch bearbeitet; ${CHECKOUT_DELAYED_REST}`,
  checkoutUnknownTitle: "Kein Kauf gefunden",
  checkoutUnknown:
    "Zu Ihrer Rückkehr von der Kasse gibt es bei uns kein Produkt, es wurde also nichts freigeschaltet. Falls Sie etwas bezahlt haben, schreiben Sie uns bitte an support@example.com und nennen Sie die Bestellnummer aus der E-Mail von Digistore24.",
  gatedNotActiveYet: "Dieses Kongresspaket ist ab dem {date} verfügbar.",

  // ours: shell
  pageNotFoundTitle: "Seite nicht gefunden",
  pageNotFoundDetail: "Die gesuchte Seite wurde leider nicht gefunden.",
} as const;

export type MessageKey = keyof typeof MSG;
