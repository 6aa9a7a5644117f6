import type { z } from "zod";
import { formatCongressDates, formatGermanDate, type IsoDate } from "./dates";
import { zForm, zText } from "./field-text";
import { ZId } from "./ids";
import { ZPage } from "./paging";
import { hasControlCharacters, MSG_NAME } from "./person-name";

/**
 * Teilnahmebescheinigungen (ADR 0115, ADR 0116, ADR 0117, ADR 0118): what a certificate states, frozen when it is
 * issued. The PDF and the public verification page show exactly these facts.
 */

export const CERTIFICATE_KINDS = ["event", "recording"] as const;
export type CertificateKind = (typeof CERTIFICATE_KINDS)[number];

/** The verification code: 18 random-looking bytes (144 bits) as base64url, never stored (ADR 0116). */
export const CERTIFICATE_CODE_PATTERN = /^[A-Za-z0-9_-]{24}$/;
/** The path of the public verification page; the code follows. */
export const CERTIFICATE_VERIFY_PATH = "/bescheinigung/";

export interface CertificateIssuerFacts {
  name: string;
  /** one line per line */
  address: string;
  signatory: string;
  /** stored picture names (table images), drawn on the PDF */
  logo: string | null;
  signature: string | null;
}

export interface CertificateDayFacts {
  day: IsoDate;
  /** the minutes attended that day (whole minutes, as the participant saw them) */
  minutes: number;
  /** the day's content in minutes */
  contentMinutes: number;
  points: number;
}

export interface CertificateFacts {
  kind: CertificateKind;
  issuedOn: IsoDate;
  participant: { name: string; efn: string | null };
  issuer: CertificateIssuerFacts;
  congress: { title: string; firstDay: IsoDate; lastDay: IsoDate | null };
  vnr: string | null;
  category: string | null;
  /** an event's certificate: the days whose rule was reached */
  days: CertificateDayFacts[];
  points: number;
  /** a recording's certificate: the package and the day its learning check was passed */
  recording: { packageName: string; day: IsoDate | null; passedOn: IsoDate } | null;
}

/**
 * What the verification page shows (no picture names, no ids): the certificate's facts with the EFN
 * masked to its last four digits (`maskEfn`, ADR 0117), since anyone with the code reads them.
 */
export type PublicCertificate = Omit<CertificateFacts, "issuer" | "participant"> & {
  number: string;
  participant: {
    name: string;
    /** `maskEfn`: "XXXXXXXXXXX4566" */
    efn: string | null;
  };
  issuer: Omit<CertificateIssuerFacts, "logo" | "signature">;
};

export type CertificateCheck =
  | { status: "valid"; certificate: PublicCertificate }
  | { status: "revoked"; certificate: PublicCertificate; revokedOn: IsoDate; replaced: boolean }
  | { status: "unknown" };

export const MSG_CERTIFICATE = {
  title: "Teilnahmebescheinigung",
  recordingTitle: "Teilnahmebescheinigung (Aufzeichnung)",
  notFoundTitle: "Bescheinigung nicht gefunden",
  notFound: "Diese Bescheinigung gibt es nicht.",
  revokedTitle: "Bescheinigung widerrufen",
  revoked: "Diese Bescheinigung ist widerrufen und kann nicht heruntergeladen werden.",
  alreadyRevoked: "Diese Bescheinigung ist bereits widerrufen.",
  reasonRequired: "Bitte geben Sie einen Grund für den Widerruf an.",
  issuerName: "Bitte geben Sie den Namen des Veranstalters an.",
  noIssuerTitle: "Kein Aussteller",
  noIssuer: "Bitte legen Sie zuerst im Bereich „Bescheinigungen“ den Aussteller fest.",
  nothingReachedTitle: "Keine Bescheinigung",
  nothingReached: "Nach den heutigen Daten hat diese Person keinen Tag der Veranstaltung erreicht.",
  notPassed: "Für diese Lernerfolgskontrolle liegt kein bestandener Versuch vor.",
  efnMasked: "Von der EFN zeigt diese Seite zum Schutz der Person nur die letzten vier Ziffern.",
  codeSecretChanged:
    "Die Bescheinigung kann nicht erstellt werden, weil sich der Schlüssel CERTIFICATE_SECRET geändert hat. Bitte stellen Sie sie neu aus.",
} as const;

export const ZCertificateCodeInput = zForm({ code: zText(200, "Der Code") });

export const ZCertificateIdInput = zForm({ id: ZId });

export const ZCertificateListInput = zForm({ congressId: ZId, page: ZPage });

export const ZCertificateRevokeInput = zForm({
  id: ZId,
  reason: zText(500, "Der Grund", MSG_CERTIFICATE.reasonRequired)
    .trim()
    .min(1, MSG_CERTIFICATE.reasonRequired),
});
export type TCertificateRevokeInput = z.input<typeof ZCertificateRevokeInput>;

/** a stored picture name from the image upload; empty: none */
const pictureName = zText(100, "Der Bildname")
  .trim()
  .transform((v) => (v === "" ? null : v))
  .nullable()
  .default(null);

export const ZCertificateIssuerInput = zForm({
  name: zText(200, "Der Name", MSG_CERTIFICATE.issuerName)
    .trim()
    .min(1, MSG_CERTIFICATE.issuerName)
    .refine((v) => !hasControlCharacters(v), MSG_NAME.controls),
  address: zText(500, "Die Anschrift").trim().default(""),
  signatory: zText(200, "Die unterzeichnende Person")
    .trim()
    .refine((v) => !hasControlCharacters(v), MSG_NAME.controls)
    .default(""),
  logo: pictureName,
  signature: pictureName,
});
export type TCertificateIssuerInput = z.input<typeof ZCertificateIssuerInput>;

const weekdayNames = ["Sonntag", "Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag"];

/** "Montag, 23.11.2026" (a calendar date, no time zone involved) */
export function germanDayName(day: IsoDate): string {
  return `${weekdayNames[new Date(`${day}T12:00:00Z`).getUTCDay()]}, ${formatGermanDate(day)}`;
}

const de = new Intl.NumberFormat("de-DE");
const pointsText = (points: number) => `${de.format(points)} ${points === 1 ? "Punkt" : "Punkte"}`;

/** "Montag, 23.11.2026: 150 von 180 Minuten, 4 Punkte" */
export function certificateDayLine(day: CertificateDayFacts): string {
  return `${germanDayName(day.day)}: ${de.format(day.minutes)} von ${de.format(day.contentMinutes)} Minuten, ${pointsText(day.points)}`;
}

export interface CertificateRow {
  label: string;
  value: string;
}

/**
 * The labelled lines of a certificate, in order: the PDF prints them and the verification page shows them,
 * so the two never differ. The days of an event follow as `certificateDayLine`s.
 */
export function certificateRows(facts: Omit<CertificateFacts, "issuer">, number: string): CertificateRow[] {
  const rows: CertificateRow[] = [
    { label: "Name", value: facts.participant.name },
    { label: "EFN", value: facts.participant.efn ?? "—" },
    { label: "Veranstaltung", value: facts.congress.title },
    { label: "Datum", value: formatCongressDates(facts.congress.firstDay, facts.congress.lastDay) },
  ];
  if (facts.recording) {
    rows.push({ label: "Aufzeichnung", value: facts.recording.packageName });
    if (facts.recording.day) {
      rows.push({ label: "Aufzeichnung vom", value: formatGermanDate(facts.recording.day) });
    }
    rows.push({
      label: "Lernerfolgskontrolle bestanden am",
      value: formatGermanDate(facts.recording.passedOn),
    });
  }
  rows.push(
    { label: "Veranstaltungsnummer (VNR)", value: facts.vnr ?? "—" },
    { label: "Kategorie", value: facts.category ?? "—" },
    { label: "Fortbildungspunkte", value: pointsText(facts.points) },
    { label: "Ausgestellt am", value: formatGermanDate(facts.issuedOn) },
    { label: "Bescheinigungsnummer", value: number },
  );
  return rows;
}
