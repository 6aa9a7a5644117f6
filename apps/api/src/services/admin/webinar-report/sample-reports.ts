/**
 * Participant reports shaped as the tools write them, for the tests (ADR 0107). The day is
 * 2026-11-20 (a Friday, winter time: Berlin is UTC+1).
 */

export const REPORT_DAY = "2026-11-20";

/**
 * Zoom's English meeting report "with meeting data": the meeting's summary first (its host's e-mail and the
 * meeting's start and end are no participants), a blank line, then one row per join, US dates with AM/PM.
 * Anna joined three times (two overlapping), Bernd once, a guest without e-mail, an unknown address.
 */
export const ZOOM_ENGLISH = [
  "Meeting ID,Topic,Start Time,End Time,User Email,Duration (Minutes),Participants,",
  "812 3456 7890,Fortbildung Traumatherapie,11/20/2026 08:55:12 AM,11/20/2026 12:04:40 PM,host@kongress.example,190,5,",
  "",
  "Name (Original Name),User Email,Join Time,Leave Time,Duration (Minutes),Guest,Recording Consent,In Waiting Room",
  "Anna Adler,Anna.Adler@Example.com,11/20/2026 09:00:05 AM,11/20/2026 09:45:10 AM,46,No,Y,No",
  "Bernd Berg (Bernd),bernd.berg@example.com,11/20/2026 09:01:00 AM,11/20/2026 12:01:00 PM,180,No,Y,No",
  "Anna Adler (Tablet),anna.adler@example.com,11/20/2026 09:40:00 AM,11/20/2026 10:30:00 AM,50,No,Y,No",
  "iPhone von Gast,,11/20/2026 09:10:00 AM,11/20/2026 09:50:00 AM,40,Yes,Y,No",
  "Anna Adler,anna.adler@example.com,11/20/2026 11:00:00 AM,11/20/2026 11:30:00 AM,30,No,Y,No",
  "Niemand Bekannt,niemand@example.com,11/20/2026 09:00:00 AM,11/20/2026 10:00:00 AM,60,No,Y,No",
  "",
].join("\r\n");

/** The same meeting as Zoom's German export: byte order mark, semicolons, German dates, a name with a comma. */
export const ZOOM_GERMAN = `\uFEFF${[
  "Name (ursprünglicher Name);E-Mail des Benutzers;Beitrittszeit;Zeitpunkt des Verlassens;Dauer (Minuten);Gast;Zustimmung zur Aufzeichnung;Im Warteraum",
  '"Adler, Anna";anna.adler@example.com;20.11.2026 09:00:05;20.11.2026 09:45:10;46;Nein;J;Nein',
  "Bernd Berg;BERND.BERG@example.com;20.11.2026 09:01:00;20.11.2026 12:01:00;180;Nein;J;Nein",
  "Anna Adler (Tablet);anna.adler@example.com;20.11.2026 09:40:00;20.11.2026 10:30:00;50;Nein;J;Nein",
  "iPhone von Gast;;20.11.2026 09:10:00;20.11.2026 09:50:00;40;Ja;J;Nein",
  "Anna Adler;anna.adler@example.com;20.11.2026 11:00;20.11.2026 11:30;30;Nein;J;Nein",
  "Niemand Bekannt;niemand@example.com;20.11.2026 09:00:00;20.11.2026 10:00:00;60;Nein;J;Nein",
].join("\r\n")}\r\n`;

/** A table typed by hand: "E-Mail, Beginn, Ende" with clock times on the chosen day. */
export const GENERIC = ["E-Mail,Beginn,Ende", "anna.adler@example.com,13:00,13:45", ""].join("\n");

/** Zoom's German report with a broken row on line 7 (a month 13). */
export const ZOOM_GERMAN_BROKEN = ZOOM_GERMAN.replace(
  "Niemand Bekannt;niemand@example.com;20.11.2026 09:00:00",
  "Niemand Bekannt;niemand@example.com;20.13.2026 09:00:00",
);

/** Anna's stretches of the day in every Zoom report above (Berlin time): three joins, two overlapping. */
export const ANNA_INTERVALS = [
  ["09:00:05", "10:30:00"],
  ["11:00:00", "11:30:00"],
] as const;
/** 89:55 + 30:00 = 119 whole minutes */
export const ANNA_MINUTES = 119;
export const BERND_MINUTES = 180;
