import { type Db, schema } from "@app/db";
import {
  isLegalImageSrc,
  LEGAL_HTML,
  LEGAL_PAGE_TITLES,
  type LegalPageSlug,
  MSG_PRIVACY,
  type TLegalPageInput,
} from "@app/shared";
import { eq } from "drizzle-orm";
import sanitizeHtml from "sanitize-html";
import { AppError } from "../../lib/app-error";
import { adminActor, changedFields, recordAudit } from "../admin/audit";
import type { ServiceDeps } from "../deps";

/**
 * The legal pages as the operators wrote them in the admin area. Until they save one, a starting text
 * with clearly marked gaps is shown (ADR 0038).
 */

const { legalPages } = schema;

/** The shared allow-list (LEGAL_HTML); images only our own uploads (`/uploads/images/…`, made relative). */
export function sanitizeLegalHtml(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: [...LEGAL_HTML.tags],
    allowedAttributes: { a: [...LEGAL_HTML.attributes.a], img: [...LEGAL_HTML.attributes.img] },
    allowedSchemes: [...LEGAL_HTML.linkSchemes],
    allowedSchemesByTag: { img: [] },
    allowProtocolRelative: false,
    exclusiveFilter: (frame) => frame.tag === "img" && !isLegalImageSrc(frame.attribs.src ?? ""),
    transformTags: {
      // the editor inserts uploads with the page's origin (mails need that); here they become relative
      img: (tagName, attribs) => ({
        tagName,
        attribs: {
          ...attribs,
          src: attribs.src?.replace(/^https?:\/\/[^/]+(?=\/uploads\/images\/)/, "") ?? "",
        },
      }),
      a: (tagName, attribs) => ({
        tagName,
        attribs: attribs.target === "_blank" ? { ...attribs, rel: "noopener noreferrer" } : attribs,
      }),
    },
  });
}

const DEFAULTS: Record<LegalPageSlug, string> = {
  datenschutz: `<h2>Verantwortliche Stelle</h2>
<p>[Name und Anschrift der Betreibenden, E-Mail-Adresse, ggf. Datenschutzbeauftragte:r – bitte in der Administration ergänzen]</p>
<h2>Welche Daten wir verarbeiten</h2>
<p>Für Ihr Konto speichern wir Vorname, Nachname, E-Mail-Adresse, Ihr Passwort (nur als sicheren Hash), Ihre Anmeldungen zu Veranstaltungen, Ihre Bestellungen und Ihre Einwilligungen (Datenschutzerklärung, Newsletter) mit Zeitpunkt. Rechtsgrundlage ist die Erfüllung des Vertrags (Art. 6 Abs. 1 lit. b DSGVO), für den Newsletter Ihre Einwilligung (Art. 6 Abs. 1 lit. a DSGVO), die Sie jederzeit in Ihrem Profil widerrufen können.</p>
<h2>Zahlung</h2>
<p>Die Zahlung wickelt unser Zahlungsdienstleister Digistore24 ab; wir erhalten Bestellnummer, Produkt und Zahlungsstatus. Bestellungen bewahren wir wegen handels- und steuerrechtlicher Pflichten bis zu zehn Jahre auf.</p>
<h2>Videos</h2>
<p>Videos werden erst nach Ihrem Klick vom Videoanbieter Vimeo geladen; erst dann erhält Vimeo Ihre IP-Adresse. Vorschaubilder liefern wir selbst aus.</p>
<h2>Teilnahmenachweis für Fortbildungspunkte</h2>
<p>Bei Veranstaltungen mit Fortbildungspunkten speichern wir für Ihre Teilnahmebescheinigung und die Meldung Ihrer Punkte an die Kammer, welche Abschnitte welches Videos Sie an welchem Veranstaltungstag angesehen haben (nur solange das Video in einem sichtbaren Fenster läuft), Ihre Antworten auf Anwesenheitsabfragen mit Zeitpunkt und bei Webinaren in einem anderen Werkzeug (z. B. Zoom) Ihre Beitritts- und Austrittszeiten aus dem Teilnehmerbericht, den die Veranstalter hochladen. Rechtsgrundlage ist die Erfüllung des Vertrags (Art. 6 Abs. 1 lit. b DSGVO) und die Nachweispflicht der Veranstalter gegenüber der Kammer (Art. 6 Abs. 1 lit. c DSGVO). Die Veranstalter sehen pro Tag Ihre Minuten, die bestandenen Abfragen und ob Sie die Voraussetzung erfüllt haben. Wir bewahren diese Angaben fünf Jahre nach dem Veranstaltungstag auf, so lange, wie Fortbildungspunkte nachgewiesen werden müssen (der Fünfjahreszeitraum der Fortbildungspflicht), und löschen sie danach automatisch; bei Veranstaltungen ohne Fortbildungspunkte nach 30 Tagen. Mit Ihrem Konto löschen wir sie sofort.</p>
<p>Ihre Einheitliche Fortbildungsnummer (EFN) speichern wir nur, wenn Sie sie angeben (freiwillig, im Profil oder auf der Seite einer Veranstaltung mit Fortbildungspunkten). Wir verwenden sie für Ihre Teilnahmebescheinigungen und geben sie den Veranstaltern für die Meldung Ihrer Punkte an die Kammer (Art. 6 Abs. 1 lit. b DSGVO). Sie können sie jederzeit im Profil ändern oder entfernen; mit Ihrem Konto löschen wir sie sofort.</p>
<p>Ihre Teilnahmebescheinigungen halten wir fest, wie sie ausgestellt wurden: Name, EFN, Veranstaltung, anerkannte Tage mit Minuten und Punkten, Nummer und Ausstellungsdatum. Die Prüfadresse im QR-Code zeigt diese Angaben, die EFN nur mit ihren letzten vier Ziffern, jeder Person, der Sie die Bescheinigung (oder ihren Code) weitergeben; ohne den Code ist keine Bescheinigung auffindbar, und die Prüfseite wird nicht in Suchmaschinen aufgenommen. Wir bewahren die Bescheinigungen auf, solange Ihr Konto besteht, und löschen sie mit Ihrem Konto; danach meldet die Prüfseite den Code als unbekannt.</p>
<p>Legen Sie zu einer Aufzeichnung eine Lernerfolgskontrolle ab, speichern wir jeden Versuch: die Fragen in der gezeigten Reihenfolge, Ihre Antworten, das Ergebnis und die Zeitpunkte. Abgegebene Versuche bewahren wir als Nachweis der Punkte fünf Jahre nach der Abgabe auf, begonnene und nicht abgegebene löschen wir nach 30 Tagen; mit Ihrem Konto löschen wir sie sofort.</p>
<h2>Keine Analyse, keine Dritten</h2>
<p>Wir verwenden keine Analyse- oder Werbedienste. Schriften und Bilder liefern wir selbst aus.</p>
<h2>Speicherdauer</h2>
<p>Nicht bestätigte Registrierungen löschen wir nach 30 Tagen, abgelaufene Anmelde- und Bestätigungscodes täglich. Von versandten E-Mails behalten wir nach 30 Tagen nur Vorlage, Empfänger und Zeitpunkt; Namen und Anschrift aus den Zahlungsbenachrichtigungen löschen wir nach 90 Tagen.</p>
<h2>Ihre Rechte</h2>
<p>Sie können in Ihrem Profil alle Ihre Daten herunterladen (Art. 15 und 20 DSGVO), den Newsletter abbestellen und Ihr Konto löschen (Art. 17 DSGVO). Außerdem haben Sie das Recht auf Berichtigung, Einschränkung und Widerspruch sowie auf Beschwerde bei einer Datenschutz-Aufsichtsbehörde.</p>`,
  impressum: `<p>Angaben gemäß § 5 DDG:</p>
<address>[Name der Betreibenden]<br>[Straße und Hausnummer]<br>[Postleitzahl und Ort]</address>
<p>E-Mail: [E-Mail-Adresse]<br>Telefon: [Telefonnummer]</p>
<p>[Vertretungsberechtigte Person, Registergericht und Registernummer, Umsatzsteuer-Identifikationsnummer – bitte in der Administration ergänzen]</p>`,
  barrierefreiheit: `<p>Wir möchten, dass alle Menschen unsere Kongresse und Webinare nutzen können. Diese Erklärung gilt für diese Plattform und beschreibt, wie weit sie die Anforderungen des Barrierefreiheitsstärkungsgesetzes (BFSG) und der Norm EN 301 549 bzw. der WCAG 2.1 auf Stufe AA erfüllt.</p>
<h2>Stand der Vereinbarkeit</h2>
<p>Die Plattform ist weitgehend barrierefrei. Alle Seiten und Dialoge werden bei jeder Änderung automatisch auf die Kriterien der WCAG 2.1 AA geprüft; die wichtigsten Abläufe sind vollständig mit der Tastatur bedienbar, Farben sind nie das einzige Unterscheidungsmerkmal, Animationen werden bei entsprechender Systemeinstellung abgeschaltet, und die Seiten funktionieren bei 200 % Vergrößerung und ab 320 Pixeln Breite.</p>
<h2>Nicht barrierefreie Inhalte</h2>
<p>Die Videos werden vom Videoanbieter Vimeo abgespielt. Untertitel und Audiodeskriptionen hängen davon ab, ob die Vortragenden sie bereitstellen; nicht jedes Video hat Untertitel.</p>
<h2>Erstellung dieser Erklärung</h2>
<p>Diese Erklärung beruht auf einer Selbstbewertung mit automatischen Prüfungen (axe-core) und manuellen Tests mit der Tastatur. [Datum der letzten Überprüfung – bitte in der Administration ergänzen]</p>
<h2>Feedback und Kontakt</h2>
<p>Sind Ihnen Barrieren aufgefallen? Schreiben Sie uns: [E-Mail-Adresse und Telefonnummer der Betreibenden]. Wir antworten innerhalb von zwei Wochen.</p>
<h2>Durchsetzungsverfahren</h2>
<p>Wenn Sie mit unserer Antwort nicht zufrieden sind, können Sie sich an die Marktüberwachungsstelle der Länder für die Barrierefreiheit von Produkten und Dienstleistungen (MLBF) in Magdeburg wenden.</p>`,
};

export interface LegalPage {
  slug: LegalPageSlug;
  title: string;
  html: string;
  /** null while the starting text is shown */
  updatedAt: Date | null;
}

export async function getLegalPage(db: Db, slug: LegalPageSlug): Promise<LegalPage> {
  const [row] = await db.select().from(legalPages).where(eq(legalPages.slug, slug));
  return {
    slug,
    title: LEGAL_PAGE_TITLES[slug],
    html: row?.html ?? DEFAULTS[slug],
    updatedAt: row?.updatedAt ?? null,
  };
}

export async function saveLegalPage(
  { db, clock }: Pick<ServiceDeps, "db" | "clock">,
  input: TLegalPageInput,
  adminId: number,
): Promise<LegalPage> {
  const html = sanitizeLegalHtml(input.html);
  if (sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} }).trim() === "") {
    throw new AppError("BAD_REQUEST", "legal page without text", MSG_PRIVACY.legalPageEmpty);
  }
  const now = clock.now();
  const row = await db.transaction(async (tx) => {
    const [before] = await tx
      .select({ html: legalPages.html })
      .from(legalPages)
      .where(eq(legalPages.slug, input.slug))
      .for("update");
    const [saved] = await tx
      .insert(legalPages)
      .values({ slug: input.slug, html, updatedBy: adminId, updatedAt: now })
      .onConflictDoUpdate({
        target: legalPages.slug,
        set: { html, updatedBy: adminId, updatedAt: now },
      })
      .returning();
    // the first save replaces the starting text, which was never stored
    const changes = changedFields({ html: before?.html ?? DEFAULTS[input.slug] }, { html });
    await recordAudit(tx, {
      actor: adminActor(adminId),
      action: "legal-page.save",
      entity: "legal-page",
      entityId: input.slug,
      changes,
    });
    return saved;
  });
  return { slug: input.slug, title: LEGAL_PAGE_TITLES[input.slug], html, updatedAt: row?.updatedAt ?? null };
}
