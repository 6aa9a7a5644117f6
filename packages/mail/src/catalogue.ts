/**
 * Every mail the product sends: internal name, description, the variables it offers with sample data
 * (for previews and the admin help), and the built-in default used when no template is stored.
 */
export interface MailDefinition {
  name: MailName;
  description: string;
  variables: Record<string, string>;
  sample: Record<string, unknown>;
  defaultSubject: string;
  defaultContent: string;
  /**
   * variables that carry a secret (a link with a token): the outbox keeps them only until the mail is
   * sent (apps/api/src/mail/deliver.ts)
   */
  secretVariables?: string[];
  /**
   * sent about one event (its outbox row names the event), so an event may have its own template of it
   * ("Neue Vorlage", copying); a mail about the account alone (password, sign-in link) has only the
   * general one
   */
  perEvent: boolean;
}

export const MAIL_NAMES = [
  "registration-confirmation",
  "password-reset",
  "registration-existing-account",
  "migration-set-password",
  "sign-in-link",
  "participation-confirmation",
  "event-day",
  "order-package",
  "order-ticket",
  "order-ticket-package",
  "order-admin",
  "certificate",
] as const;
export type MailName = (typeof MAIL_NAMES)[number];

const COMMON_VARIABLES = {
  userFullName: "Vor- und Nachname der Empfängerin / des Empfängers",
  firstname: "Vorname",
  lastname: "Nachname",
  newsletter: "wahr, wenn der Newsletter abonniert ist ({{#if newsletter}} … {{/if}})",
};
const COMMON_SAMPLE = {
  userFullName: "Erika Mustermann",
  firstname: "Erika",
  lastname: "Mustermann",
  newsletter: true,
};

export const MAIL_CATALOGUE: Record<MailName, MailDefinition> = {
  "registration-confirmation": {
    name: "registration-confirmation",
    perEvent: true,
    secretVariables: ["url"],
    description: "Nach der Registrierung: Link zur Bestätigung der E-Mail-Adresse.",
    variables: { ...COMMON_VARIABLES, url: "Bestätigungslink" },
    sample: { ...COMMON_SAMPLE, url: "https://example.com/confirm-mail/1/beispiel" },
    defaultSubject: "Bitte bestätigen Sie Ihre E-Mail-Adresse",
    defaultContent:
      '<p>Hallo {{userFullName}},</p><p>vielen Dank für Ihre Registrierung. Bitte bestätigen Sie Ihre E-Mail-Adresse:</p><p><a href="{{url}}" class="button">E-Mail-Adresse bestätigen</a></p>{{#if newsletter}}<p>Sie haben unseren Newsletter abonniert.</p>{{/if}}',
  },
  "password-reset": {
    name: "password-reset",
    perEvent: false,
    secretVariables: ["url"],
    description: "Link zum Zurücksetzen des Passworts (eine Stunde gültig).",
    variables: { ...COMMON_VARIABLES, url: "Link zum Zurücksetzen" },
    sample: { ...COMMON_SAMPLE, url: "https://example.com/resetPassword/beispiel" },
    defaultSubject: "Passwort zurücksetzen",
    defaultContent:
      '<p>Hallo {{userFullName}},</p><p>über den folgenden Link können Sie ein neues Passwort festlegen. Der Link ist eine Stunde gültig.</p><p><a href="{{url}}" class="button">Neues Passwort festlegen</a></p><p>Falls Sie das nicht angefordert haben, können Sie diese E-Mail ignorieren.</p>',
  },
  "registration-existing-account": {
    name: "registration-existing-account",
    perEvent: false,
    secretVariables: ["url"],
    description:
      "Wenn sich jemand mit einer Adresse registrieren will, zu der es schon ein Konto gibt: Hinweis an die Inhaberin / den Inhaber mit Link zum Zurücksetzen des Passworts (eine Stunde gültig).",
    variables: { ...COMMON_VARIABLES, url: "Link zum Zurücksetzen des Passworts" },
    sample: { ...COMMON_SAMPLE, url: "https://example.com/resetPassword/beispiel" },
    defaultSubject: "Sie haben bereits ein Konto",
    defaultContent:
      '<p>Hallo {{userFullName}},</p><p>soeben wollte sich jemand mit Ihrer E-Mail-Adresse neu registrieren. Für diese Adresse besteht bereits ein Konto, deshalb wurde kein neues angelegt.</p><p>Falls Sie das waren und Ihr Passwort nicht mehr wissen, können Sie über den folgenden Link ein neues festlegen. Der Link ist eine Stunde gültig.</p><p><a href="{{url}}" class="button">Neues Passwort festlegen</a></p><p>Falls Sie das nicht waren, können Sie diese E-Mail ignorieren: Ihr Konto bleibt unverändert.</p>',
  },
  "migration-set-password": {
    name: "migration-set-password",
    perEvent: false,
    secretVariables: ["url"],
    description: "Für übernommene Konten ohne Passwort: Link zum Festlegen des Passworts.",
    variables: { ...COMMON_VARIABLES, url: "Link zum Festlegen des Passworts" },
    sample: { ...COMMON_SAMPLE, url: "https://example.com/migration/set-password/1/beispiel" },
    defaultSubject: "Bitte legen Sie Ihr Passwort fest",
    defaultContent:
      '<p>Hallo {{userFullName}},</p><p>Ihr Konto wurde auf unsere neue Plattform übertragen. Bitte legen Sie ein Passwort fest:</p><p><a href="{{url}}" class="button">Passwort festlegen</a></p>',
  },
  "sign-in-link": {
    name: "sign-in-link",
    perEvent: false,
    secretVariables: ["url"],
    description:
      "Anmeldelink per E-Mail, wenn eine Anmeldung nach vielen fehlgeschlagenen Versuchen anderer abgelehnt wurde (15 Minuten gültig, einmal verwendbar).",
    variables: { ...COMMON_VARIABLES, url: "Anmeldelink" },
    sample: { ...COMMON_SAMPLE, url: "https://example.com/login-link/beispiel" },
    defaultSubject: "Ihr Anmeldelink",
    defaultContent:
      '<p>Hallo {{userFullName}},</p><p>über den folgenden Link melden Sie sich in dem Browser an, in dem Sie ihn öffnen. Der Link ist 15 Minuten gültig und kann einmal verwendet werden. Ist für Ihr Konto die Zwei-Faktor-Anmeldung eingerichtet, fragen wir danach noch Ihren Code ab.</p><p><a href="{{url}}" class="button">Jetzt anmelden</a></p><p>Falls Sie keinen Anmeldelink angefordert haben, können Sie diese E-Mail ignorieren: Ihr Konto bleibt unverändert, und niemand kann sich ohne diesen Link anmelden.</p>',
  },
  "participation-confirmation": {
    name: "participation-confirmation",
    perEvent: true,
    description: "Bestätigung der Anmeldung zu einer Veranstaltung.",
    variables: { ...COMMON_VARIABLES, congressTitle: "Titel der Veranstaltung", url: "Link zur Übersicht" },
    sample: {
      ...COMMON_SAMPLE,
      congressTitle: "Online-Kongress Beziehung & Bindung",
      url: "https://example.com/",
    },
    defaultSubject: "Ihre Anmeldung: {{congressTitle}}",
    defaultContent:
      '<p>Hallo {{userFullName}},</p><p>Sie sind für <strong>{{congressTitle}}</strong> angemeldet.</p><p><a href="{{url}}" class="button">Zur Übersicht</a></p>',
  },
  "event-day": {
    name: "event-day",
    perEvent: true,
    description: "Wird an jedem Veranstaltungstag um 0:00 Uhr an alle Teilnehmenden verschickt.",
    variables: { ...COMMON_VARIABLES, congressTitle: "Titel der Veranstaltung", url: "Link zu den Videos" },
    sample: {
      ...COMMON_SAMPLE,
      congressTitle: "Online-Kongress Beziehung & Bindung",
      url: "https://example.com/",
    },
    defaultSubject: "Heute: {{congressTitle}}",
    defaultContent:
      '<p>Hallo {{userFullName}},</p><p>heute geht es los: <strong>{{congressTitle}}</strong>.</p><p><a href="{{url}}" class="button">Zu den Videos</a></p>',
  },
  "order-package": {
    name: "order-package",
    perEvent: true,
    description: "Nach dem Kauf eines Kongresspakets.",
    variables: {
      ...COMMON_VARIABLES,
      productName: "Name des Kongresspakets oder der Veranstaltung",
      url: "Link zur Übersicht",
    },
    sample: {
      ...COMMON_SAMPLE,
      productName: "Online-Kongress Beziehung & Bindung",
      url: "https://example.com/",
    },
    defaultSubject: "Ihr Kongresspaket: {{productName}}",
    defaultContent:
      '<p>Hallo {{userFullName}},</p><p>vielen Dank! Ihr Kongresspaket <strong>{{productName}}</strong> ist freigeschaltet. Sie finden es in Ihrer Übersicht.</p><p><a href="{{url}}" class="button">Zur Übersicht</a></p>',
  },
  "order-ticket": {
    name: "order-ticket",
    perEvent: true,
    description: "Nach dem Kauf eines Tickets.",
    variables: {
      ...COMMON_VARIABLES,
      productName: "Name des Kongresspakets oder der Veranstaltung",
      url: "Link zur Übersicht",
    },
    sample: {
      ...COMMON_SAMPLE,
      productName: "Online-Kongress Beziehung & Bindung",
      url: "https://example.com/",
    },
    defaultSubject: "Ihr Ticket: {{productName}}",
    defaultContent:
      '<p>Hallo {{userFullName}},</p><p>vielen Dank! Ihr Ticket für <strong>{{productName}}</strong> ist gebucht und Sie sind angemeldet.</p><p><a href="{{url}}" class="button">Zur Übersicht</a></p>',
  },
  "order-ticket-package": {
    name: "order-ticket-package",
    perEvent: true,
    description: "Nach dem Kauf von Ticket und Kongresspaket.",
    variables: {
      ...COMMON_VARIABLES,
      productName: "Name des Kongresspakets oder der Veranstaltung",
      url: "Link zur Übersicht",
    },
    sample: {
      ...COMMON_SAMPLE,
      productName: "Online-Kongress Beziehung & Bindung",
      url: "https://example.com/",
    },
    defaultSubject: "Ihr Ticket und Kongresspaket: {{productName}}",
    defaultContent:
      '<p>Hallo {{userFullName}},</p><p>vielen Dank! Ihr Ticket für <strong>{{productName}}</strong> ist gebucht und das Kongresspaket freigeschaltet. Beides finden Sie in Ihrer Übersicht.</p><p><a href="{{url}}" class="button">Zur Übersicht</a></p>',
  },
  "order-admin": {
    name: "order-admin",
    perEvent: true,
    description:
      "Wenn das Team in der Administration eine Bestellung (FAKE-ORDER) für eine Person anlegt: Ticket oder Kongresspaket.",
    variables: {
      ...COMMON_VARIABLES,
      productName: "Name des Kongresspakets oder der Veranstaltung",
      productKind: "„Ticket“ oder „Kongresspaket“",
      url: "Link zur Übersicht",
    },
    sample: {
      ...COMMON_SAMPLE,
      productName: "Online-Kongress Beziehung & Bindung",
      productKind: "Ticket",
      url: "https://example.com/",
    },
    defaultSubject: "Für Sie freigeschaltet: {{productName}}",
    defaultContent:
      '<p>Hallo {{userFullName}},</p><p>unser Team hat für Sie Folgendes freigeschaltet: {{productKind}} <strong>{{productName}}</strong>. Sie finden es in Ihrer Übersicht.</p><p><a href="{{url}}" class="button">Zur Übersicht</a></p>',
  },
  certificate: {
    name: "certificate",
    perEvent: true,
    description:
      "Nach dem letzten Tag einer Fortbildungsveranstaltung (bzw. nach bestandener Lernerfolgskontrolle einer Aufzeichnung): die Teilnahmebescheinigung als PDF im Anhang.",
    variables: {
      ...COMMON_VARIABLES,
      congressTitle: "Titel der Veranstaltung",
      packageName: "Name des Kongresspakets (nur bei einer Aufzeichnung)",
      recording: "wahr bei der Bescheinigung einer Aufzeichnung ({{#if recording}} … {{/if}})",
      certificateNumber: "Bescheinigungsnummer",
      points: "Fortbildungspunkte",
      url: "Link zum Profil (Meine Bescheinigungen)",
    },
    sample: {
      ...COMMON_SAMPLE,
      congressTitle: "Online-Kongress Beziehung & Bindung",
      packageName: "",
      recording: false,
      certificateNumber: "2026-000123",
      points: 8,
      url: "https://example.com/profile",
    },
    defaultSubject: "Ihre Teilnahmebescheinigung: {{congressTitle}}",
    defaultContent:
      '<p>Hallo {{userFullName}},</p><p>vielen Dank für Ihre Teilnahme{{#if recording}} an der Aufzeichnung {{packageName}}{{/if}}: Im Anhang finden Sie Ihre Teilnahmebescheinigung für <strong>{{congressTitle}}</strong> (Nr. {{certificateNumber}}, {{points}} Fortbildungspunkte).</p><p>Der QR-Code auf der Bescheinigung führt zu einer Seite, auf der jede Stelle ihre Echtheit prüfen kann. Alle Ihre Bescheinigungen finden Sie auch in Ihrem Profil.</p><p><a href="{{url}}" class="button">Meine Bescheinigungen</a></p>',
  },
};

/** Whether an event may have its own template of the mail `name` (`perEvent`); false for unknown names. */
export const isEventMail = (name: string): boolean =>
  Object.hasOwn(MAIL_CATALOGUE, name) && MAIL_CATALOGUE[name as MailName].perEvent;
