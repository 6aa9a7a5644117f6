/**
 * Admin two-factor login (TOTP authenticator app plus single-use recovery codes); see ADR 0047.
 * No zod here: the login page imports these texts, the schemas are in two-factor-input.ts.
 */

export const RECOVERY_CODE_COUNT = 10;
/** how long the password step's challenge stays valid */
export const TWO_FACTOR_CHALLENGE_MS = 5 * 60 * 1000;

// ours: texts of the two-factor login (ADR 0047)
export const TWO_FACTOR_MSG = {
  codeRequired: "Bitte geben Sie den Bestätigungscode ein.",
  codeInvalid:
    "Der Bestätigungscode ist ungültig oder wurde bereits verwendet. Bitte versuchen Sie es erneut.",
  codeInvalidTitle: "Bestätigung fehlgeschlagen",
  challengeExpired: "Die Anmeldung ist abgelaufen. Bitte melden Sie sich erneut mit E-Mail und Passwort an.",
  alreadyEnabled: "Die Zwei-Faktor-Anmeldung ist bereits eingerichtet.",
  notEnabled: "Die Zwei-Faktor-Anmeldung ist nicht eingerichtet.",
  setupNotStarted: "Bitte starten Sie die Einrichtung erneut.",
  enabled: "Die Zwei-Faktor-Anmeldung ist eingerichtet.",
  disabled: "Die Zwei-Faktor-Anmeldung wurde deaktiviert.",
  recoveryCodesRenewed: "Neue Wiederherstellungscodes wurden erstellt. Die bisherigen gelten nicht mehr.",
} as const;
