import { z } from "zod";
import { MSG_FIELD, zChoice, zForm, zText } from "./field-text";
import { zId } from "./ids";
import { ZPage } from "./paging";

/**
 * The audit log (ADR 0045): every admin write and every payment notification, with who, when, what and
 * the changed fields. Labels here make the entries readable in German on both sides.
 */

export const AUDIT_ACTOR_KINDS = ["admin", "payment-notification", "system"] as const;
export type AuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number];

export const AUDIT_ENTITY_LABELS = {
  congress: "Veranstaltung",
  package: "Kongresspaket",
  content: "Videoinhalt",
  user: "Benutzer:in",
  order: "Bestellung",
  "mail-template": "E-Mail-Template",
  "legal-page": "Rechtliche Seite",
  "payment-notification": "Zahlungsbenachrichtigung",
  mail: "E-Mail",
  "learning-check": "Lernerfolgskontrolle",
  certificate: "Bescheinigung",
} as const;
export type AuditEntity = keyof typeof AUDIT_ENTITY_LABELS;
export const AUDIT_ENTITIES = Object.keys(AUDIT_ENTITY_LABELS) as AuditEntity[];

export const AUDIT_ACTION_LABELS = {
  "congress.create": "Veranstaltung angelegt",
  "congress.save": "Veranstaltung geändert",
  "congress.delete": "Veranstaltung gelöscht",
  "package.create": "Kongresspaket angelegt",
  "package.save": "Kongresspaket geändert",
  "package.delete": "Kongresspaket gelöscht",
  "content.create": "Videoinhalt angelegt",
  "content.save": "Videoinhalt geändert",
  "content.delete": "Videoinhalt gelöscht",
  "user.save": "Benutzer:in geändert",
  "user.active": "Benutzer:in aktiviert/deaktiviert",
  "user.delete": "Benutzer:in gelöscht",
  "user.two-factor-on": "Zwei-Faktor-Anmeldung eingeschaltet",
  "user.two-factor-off": "Zwei-Faktor-Anmeldung ausgeschaltet",
  "user.recovery-codes": "Wiederherstellungscodes neu erstellt",
  // written by the migration that took control characters out of stored names (packages/db 0018)
  "user.name-cleaned": "Steuerzeichen aus dem Namen entfernt",
  "order.create": "Bestellung durch Admin angelegt",
  "template.create": "E-Mail-Template für eine Veranstaltung angelegt",
  "template.save": "E-Mail-Template gespeichert",
  "template.copy": "E-Mail-Templates kopiert",
  "legal-page.save": "Rechtliche Seite gespeichert",
  "mail.resend": "E-Mail erneut gesendet",
  "watch-time.import": "Teilnehmerbericht übernommen",
  "learning-check.create": "Lernerfolgskontrolle angelegt",
  "learning-check.save": "Lernerfolgskontrolle geändert",
  "learning-check.delete": "Lernerfolgskontrolle gelöscht",
  "certificate.issuer": "Aussteller der Bescheinigungen gespeichert",
  "certificate.revoke": "Bescheinigung widerrufen",
  "certificate.reissue": "Bescheinigung neu ausgestellt",
  "certificate.name-cleaned": "Steuerzeichen aus dem Namen der Bescheinigung entfernt",
  "ipn.payment": "Zahlung gemeldet",
  "ipn.refund": "Erstattung gemeldet",
  "ipn.chargeback": "Rückbuchung gemeldet",
  "ipn.payment-denial": "Zahlung abgelehnt",
  "ipn.payment-missed": "Zahlung ausgeblieben",
  "ipn.rebill-cancelled": "Abo gekündigt",
  "ipn.rebill-resumed": "Abo fortgesetzt",
  "ipn.other": "Sonstige Zahlungsbenachrichtigung",
} as const;
export type AuditAction = keyof typeof AUDIT_ACTION_LABELS;
export const AUDIT_ACTIONS = Object.keys(AUDIT_ACTION_LABELS) as AuditAction[];

/** German names of the recorded fields; a field without a label is shown by its technical name. */
export const AUDIT_FIELD_LABELS: Record<string, string> = {
  twoFactor: "Zwei-Faktor-Anmeldung",
  title: "Titel",
  description: "Beschreibung",
  picture: "Bild",
  webinar: "Webinar",
  webinarUrl: "Webinar-Link",
  webinarStartTime: "Webinar-Beginn",
  visible: "Sichtbar",
  firstDay: "Erster Tag",
  lastDay: "Letzter Tag",
  digistoreIdTicket: "Digistore-ID Ticket",
  digistoreIdTicketAndPackage: "Digistore-ID Ticket und Paket",
  extraParameters: "Zusätzliche Parameter",
  name: "Name",
  congressId: "Veranstaltung (ID)",
  externalId: "Externe ID",
  availabilityDate: "Verfügbar ab",
  type: "Typ",
  data: "Inhalt",
  firstname: "Vorname",
  lastname: "Nachname",
  email: "E-Mail",
  active: "Aktiv",
  admin: "Administrator:in",
  subject: "Betreff",
  content: "Inhalt",
  html: "Text",
  slug: "Seite",
  category: "Art",
  productId: "Produkt (ID)",
  userId: "Benutzer:in (ID)",
  orderNumber: "Bestellnummer",
  status: "Status",
  event: "Ereignis",
  outcome: "Ergebnis",
  orderStatus: "Bestellstatus",
  copyFrom: "Von Veranstaltung (ID)",
  copyTo: "Nach Veranstaltung (ID)",
  templates: "Templates",
  startedFrom: "Ausgangspunkt",
  attempts: "Versuche",
  day: "Tag",
  fileName: "Datei",
  reportRows: "Zeilen des Berichts",
  accounts: "Konten angerechnet",
  minutesAdded: "Minuten hinzugefügt",
  unmatchedRows: "Zeilen ohne Konto",
  packageId: "Kongresspaket (ID)",
  passPercent: "Bestehensgrenze (%)",
  fortbildungCategory: "Kategorie",
  points: "Punkte",
  questions: "Fragen",
  number: "Bescheinigungsnummer",
  reason: "Grund",
  replacedBy: "Ersetzt durch",
  address: "Anschrift",
  signatory: "Unterzeichnende Person",
  logo: "Logo",
  signature: "Unterschrift",
  removedCharacters: "Entfernte Zeichen",
};

/** Personal values (names) are recorded as changed, never with their value: the log outlives accounts. */
export const AUDIT_HIDDEN_VALUE = "***";

const DAY_INVALID = "Bitte ein Datum im Format JJJJ-MM-TT angeben.";
const isoDay = z.string({ error: DAY_INVALID }).regex(/^\d{4}-\d{2}-\d{2}$/, DAY_INVALID);

export const ZAuditListInput = zForm({
  page: ZPage,
  entity: zChoice(AUDIT_ENTITIES as [AuditEntity, ...AuditEntity[]]).optional(),
  action: zChoice(AUDIT_ACTIONS as [AuditAction, ...AuditAction[]]).optional(),
  /** an admin's id, or the kind of a non-admin actor */
  actorId: zId(MSG_FIELD.choice).optional(),
  actorKind: zChoice(AUDIT_ACTOR_KINDS).optional(),
  /** Berlin calendar days, both included */
  from: isoDay.optional(),
  to: isoDay.optional(),
});
export type TAuditListInput = z.input<typeof ZAuditListInput>;

/** One recorded value as German text (short: long texts are cut for the table). */
export function formatAuditValue(value: unknown, max = 120): string {
  if (value === null || value === undefined || value === "") {
    return "–";
  }
  if (typeof value === "boolean") {
    return value ? "Ja" : "Nein";
  }
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max)} …` : text;
}

/** The changes of an entry as German lines: "Titel: alt → neu" for updates, "Titel: neu" for creations. */
export function describeAuditChanges(changes: Record<string, unknown>): string[] {
  return Object.entries(changes).map(([field, value]) => {
    const label = AUDIT_FIELD_LABELS[field] ?? field;
    if (Array.isArray(value) && value.length === 2) {
      return `${label}: ${formatAuditValue(value[0])} → ${formatAuditValue(value[1])}`;
    }
    return `${label}: ${formatAuditValue(value)}`;
  });
}

// --- mail outbox -------------------------------------------------------------------------------------------

/** Attempts after which an outbox mail is given up (`failed`) and the sweeper leaves it alone. */
export const MAIL_MAX_ATTEMPTS = 8;
export const MAIL_STATUSES = ["queued", "sent", "failed"] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];
export const MAIL_STATUS_LABELS: Record<MailStatus, string> = {
  queued: "in der Warteschlange",
  sent: "versendet",
  failed: "fehlgeschlagen",
};

export const ZMailOutboxListInput = zForm({
  page: ZPage,
  status: zChoice(MAIL_STATUSES).optional(),
  template: zText(100, "Der Name der E-Mail").trim().optional(),
});
export type TMailOutboxListInput = z.input<typeof ZMailOutboxListInput>;

export const MSG_OUTBOX = {
  notFound: "Die E-Mail wurde nicht gefunden.",
  onlyFailed: "Nur fehlgeschlagene E-Mails können erneut gesendet werden.",
  linkGone:
    "Der Link dieser E-Mail wird nicht mehr gebraucht (die Adresse ist bestätigt, das Passwort gesetzt oder das Konto gelöscht). Sie wird nicht erneut gesendet.",
  resent: "Die E-Mail wird erneut gesendet.",
} as const;
