/**
 * General mail templates the demo and a fresh installation start with. Variables use double braces;
 * the accounts and administration issues render them (see docs/decisions.md).
 */
export const GENERAL_MAIL_TEMPLATES = [
  {
    name: "registration-confirmation",
    description: "<p>Wird nach der Registrierung verschickt. Variablen: userFullName, url, newsletter.</p>",
    subject: "Bitte bestätigen Sie Ihre E-Mail-Adresse",
    content:
      '<p>Hallo {{userFullName}},</p><p>vielen Dank für Ihre Registrierung. Bitte bestätigen Sie Ihre E-Mail-Adresse:</p><p><a href="{{url}}" class="button">E-Mail-Adresse bestätigen</a></p>{{#if newsletter}}<p>Sie haben unseren Newsletter abonniert.</p>{{/if}}',
  },
  {
    name: "password-reset",
    description:
      "<p>Link zum Zurücksetzen des Passworts (1 Stunde gültig). Variablen: userFullName, url.</p>",
    subject: "Passwort zurücksetzen",
    content:
      '<p>Hallo {{userFullName}},</p><p>über den folgenden Link können Sie ein neues Passwort festlegen. Der Link ist eine Stunde gültig.</p><p><a href="{{url}}" class="button">Neues Passwort festlegen</a></p><p>Falls Sie das nicht angefordert haben, können Sie diese E-Mail ignorieren.</p>',
  },
  {
    name: "migration-set-password",
    description: "<p>Für übernommene Konten ohne Passwort. Variablen: userFullName, url.</p>",
    subject: "Bitte legen Sie Ihr Passwort fest",
    content:
      '<p>Hallo {{userFullName}},</p><p>Ihr Konto wurde auf unsere neue Plattform übertragen. Bitte legen Sie ein Passwort fest:</p><p><a href="{{url}}" class="button">Passwort festlegen</a></p>',
  },
  {
    name: "participation-confirmation",
    description:
      "<p>Bestätigung der Anmeldung zu einer Veranstaltung. Variablen: userFullName, congressTitle, url.</p>",
    subject: "Ihre Anmeldung: {{congressTitle}}",
    content:
      '<p>Hallo {{userFullName}},</p><p>Sie sind für <strong>{{congressTitle}}</strong> angemeldet.</p><p><a href="{{url}}" class="button">Zur Übersicht</a></p>',
  },
  {
    name: "event-day",
    description: "<p>Wird an jedem Veranstaltungstag um 0:00 Uhr an alle Teilnehmenden verschickt.</p>",
    subject: "Heute: {{congressTitle}}",
    content:
      '<p>Hallo {{userFullName}},</p><p>heute geht es los: <strong>{{congressTitle}}</strong>.</p><p><a href="{{url}}" class="button">Zu den Videos</a></p>',
  },
] as const;
