import { z } from "zod";
import "./zod-locale";
import { parseGermanDate } from "./congresses";
import { CONTENT_TYPES, MAX_ID, SEARCH_MAX } from "./constants";
import { MSG_FIELD, tooLong, zChoice, zFlag, zForm, zSearch, zText } from "./field-text";
import { checkPresenceCounts, FORTBILDUNG_FIELDS } from "./fortbildung";
import { ZId, zId, zRef } from "./ids";
import { isWebAddress, linkTarget } from "./links";
import { MSG } from "./messages";
import { ZPage, ZPageInput } from "./paging";
import { zPersonName } from "./person-name";
import { zVideoLength, zVideoLive } from "./video-length";

/**
 * The event's two checkout ids (spec section 3: greater than 0 means offered): the field's label, and what
 * 0 means there, which is the field's hint and the end of its message when a value is refused.
 */
export const CHECKOUT_ID_FIELDS = {
  digistoreIdTicket: {
    label: "Checkout-ID Ticket",
    zero: "0 = kein Ticketverkauf (die Teilnahme ist kostenlos)",
  },
  digistoreIdTicketAndPackage: { label: "Checkout-ID Ticket + Kongresspaket", zero: "0 = nicht angeboten" },
} as const;
const checkoutIdInvalid = ({ label, zero }: { label: string; zero: string }) =>
  `Die ${label} ist eine ganze Zahl ab 0; ${zero}.`;

export const MSG_ADMIN = {
  titleRequired: "Bitte geben Sie einen Titel ein.",
  descriptionRequired: "Bitte geben Sie eine Beschreibung ein.",
  nameRequired: "Bitte geben Sie einen Namen ein.",
  congressRequired: "Bitte wählen Sie eine Veranstaltung.",
  externalIdRequired: "Bitte geben Sie die Checkout-ID (größer als 0) ein.",
  ticketIdInvalid: checkoutIdInvalid(CHECKOUT_ID_FIELDS.digistoreIdTicket),
  ticketAndPackageIdInvalid: checkoutIdInvalid(CHECKOUT_ID_FIELDS.digistoreIdTicketAndPackage),
  // a warning, not a refusal: the organiser may add the package before selling
  ticketPackageWithoutPackage:
    "Achtung: Zu dieser Veranstaltung gibt es noch kein Kongresspaket. Wer „Ticket + Kongresspaket“ kauft, erhält dann nur das Ticket, und ein später angelegtes Kongresspaket wird ihm nicht nachträglich freigeschaltet. Legen Sie das Kongresspaket an, bevor Sie verkaufen.",
  extraNameRequired: "Bitte geben Sie jedem Zusatzparameter einen Namen.",
  extraInvalid: "Die Zusatzparameter sind ungültig.",
  crosssellLinkInvalid:
    "Der crosssellLink muss eine Web-Adresse sein, die mit https:// oder http:// beginnt, oder ein Pfad dieser Seite, der mit einem / beginnt (z. B. /congress-package-purchase/5).",
  pictureInvalid: "Das Bild ist ungültig. Bitte laden Sie es erneut hoch.",
  contentTypeInvalid: "Bitte wählen Sie die Art des Inhalts (vimeo oder vimeo-url).",
  tooManyDays: "Ein Inhalt hat höchstens 60 Tage.",
  tooManyVideos: "Ein Tag hat höchstens 200 Videos.",
  firstDayRequired: "Bitte wählen Sie den Zeitraum der Veranstaltung.",
  lastDayBeforeFirst: "Der letzte Tag darf nicht vor dem ersten liegen.",
  startTimeInvalid: "Bitte geben Sie die Startzeit im Format HH:MM ein.",
  exclusiveDateInvalid: "Bitte geben Sie ein gültiges Datum im Format TT.MM.JJJJ ein.",
  videoUrlRequired: "Bitte geben Sie die Adresse des Videos ein.",
  videoUrlInvalid: "Bitte geben Sie eine Adresse ein, die mit http:// oder https:// beginnt.",
  dayNameRequired: "Bitte geben Sie dem Tag einen Namen.",
  imageInvalid: "Bitte laden Sie ein Bild im Format PNG, JPEG oder WebP hoch (höchstens 5 MB).",
  congressHasOrders: "Die Veranstaltung hat Bestellungen und kann deshalb nicht gelöscht werden.",
  packageHasOrders: "Das Kongresspaket hat Bestellungen und kann deshalb nicht gelöscht werden.",
  cannotDemoteSelf: "Sie können sich die Administrationsrechte nicht selbst entziehen.",
  cannotDeleteSelf: "Sie können Ihr eigenes Konto nicht löschen.",
  cannotDeactivateSelf: "Sie können Ihr eigenes Konto nicht deaktivieren.",
  emailInUse: "Diese E-Mail-Adresse wird bereits von einem anderen Konto benutzt.",
} as const;

/**
 * Plain text of at most `max` characters (`the` names it: "Der Titel"): control characters other than line
 * breaks and tabs are dropped.
 */
const plainText = (max: number, the: string, missing?: string) =>
  zText(max, the, missing)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
    .transform((v) => v.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, "").trim());

/** Plain text that must not be empty: `message` when it is, "… darf höchstens … Zeichen lang sein." when too long. */
const required = (max: number, the: string, message: string) =>
  plainText(max, the, message).pipe(z.string({ error: message }).min(1, message));
const flag = zFlag;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const isoDate = z.string({ error: MSG_FIELD.date }).regex(ISO_DATE, MSG_FIELD.date);
const dayRef = z.object({ date: isoDate }, { error: MSG_FIELD.date }).loose();
/**
 * A day as a form's field holds it: "TT.MM.JJJJ" (or JJJJ-MM-TT), read as the spec's `{date}`. "" is a day
 * not chosen yet, `{date: ""}`, which the event's rule below words ("Bitte wählen Sie den Zeitraum …").
 */
const typedDay = z
  .string({ error: MSG_FIELD.date })
  .trim()
  .max(20, MSG_FIELD.date)
  .transform((v) => ({ date: v === "" ? "" : (parseGermanDate(v) ?? v) }))
  .refine((v) => v.date === "" || ISO_DATE.test(v.date), MSG_FIELD.date);
/** A day of the REST payload (`{date: "2027-03-10"}`) or of the form ("10.03.2027"). */
const day = z.union([dayRef, typedDay], { error: MSG_FIELD.date });
/**
 * A date field of a form, typed as TT.MM.JJJJ like the event's days ("" = none), the REST payload's
 * JJJJ-MM-TT, or JSON's `null`; read as JJJJ-MM-TT or `null`.
 */
const optionalIsoDate = z
  .string({ error: MSG_FIELD.date })
  .trim()
  .max(20, MSG_FIELD.date)
  .transform((v) => (v === "" ? null : (parseGermanDate(v) ?? v)))
  .pipe(isoDate.nullable())
  .nullish();
/**
 * A checkout product id: 0 (what 0 means is the field's, see CHECKOUT_ID_FIELDS) or the id; "abc" is no
 * number, 1.5 or -1 no checkout id.
 */
const checkoutId = (invalid: string) =>
  z.coerce.number({ error: MSG_FIELD.number }).int(invalid).min(0, invalid).max(MAX_ID, invalid).default(0);
const URL_INVALID = "Bitte geben Sie eine gültige Adresse (URL) ein.";
const optionalUrl = z
  .string({ error: URL_INVALID })
  .trim()
  .max(2000, tooLong("Die Adresse", 2000))
  .transform((v) => (v === "" ? null : v))
  .pipe(z.url(URL_INVALID).refine(isWebAddress, URL_INVALID).nullable())
  .nullish();
const extraParameterMap = z
  .record(
    z
      .string({ error: MSG_ADMIN.extraNameRequired })
      .trim()
      .min(1, MSG_ADMIN.extraNameRequired)
      .max(100, tooLong("Der Name eines Zusatzparameters", 100)),
    zText(2000, "Der Wert eines Zusatzparameters"),
    { error: MSG_ADMIN.extraInvalid },
  )
  .refine((v) => Object.keys(v).length <= 30, "Höchstens 30 Zusatzparameter.");
const extraParameters = extraParameterMap.default({});
/**
 * The extra parameters as the package form lists them, pairs of name and value; a pair without a name is
 * an empty row of the list and is left out.
 */
const extraParameterPairs = z
  .array(
    z.object(
      {
        key: z.string({ error: MSG_ADMIN.extraInvalid }),
        value: z.string({ error: MSG_ADMIN.extraInvalid }),
      },
      { error: MSG_ADMIN.extraInvalid },
    ),
    { error: MSG_ADMIN.extraInvalid },
  )
  .max(200, MSG_ADMIN.extraInvalid)
  .transform((pairs) =>
    Object.fromEntries(pairs.filter((p) => p.key.trim() !== "").map((p) => [p.key.trim(), p.value])),
  );

/** The event form (`congressData`). */
const picture = z.string({ error: MSG_ADMIN.pictureInvalid }).max(200, MSG_ADMIN.pictureInvalid).nullish();

export const ZCongressInput = zForm({
  id: ZId.optional(),
  title: required(300, "Der Titel", MSG_ADMIN.titleRequired),
  description: required(20_000, "Die Beschreibung", MSG_ADMIN.descriptionRequired),
  picture,
  webinar: flag.default(false),
  webinarUrl: optionalUrl,
  webinarStartTime: z
    .string({ error: MSG_ADMIN.startTimeInvalid })
    .trim()
    .transform((v) => (v === "" ? null : v))
    .pipe(
      z
        .string({ error: MSG_ADMIN.startTimeInvalid })
        .regex(/^([01]\d|2[0-3]):[0-5]\d$/, MSG_ADMIN.startTimeInvalid)
        .nullable(),
    )
    .nullish(),
  visible: flag.default(false),
  firstCongressDay: day.nullish(),
  lastCongressDay: day.nullish(),
  digistoreIdTicket: checkoutId(MSG_ADMIN.ticketIdInvalid),
  digistoreIdTicketAndPackage: checkoutId(MSG_ADMIN.ticketAndPackageIdInvalid),
  extraParameters,
  ...FORTBILDUNG_FIELDS,
}).superRefine((v, ctx) => {
  checkPresenceCounts(v, ctx);
  const first = v.firstCongressDay?.date;
  const last = v.lastCongressDay?.date;
  if (!first) {
    ctx.addIssue({ code: "custom", path: ["firstCongressDay"], message: MSG_ADMIN.firstDayRequired });
  } else if (last === "") {
    // the form chooses two days, also for a one-day event (the spec's two selections); the REST payload
    // leaves a one-day event's last day out or null
    ctx.addIssue({ code: "custom", path: ["lastCongressDay"], message: MSG_FIELD.date });
  } else if (last && ISO_DATE.test(first) && last < first) {
    ctx.addIssue({ code: "custom", path: ["lastCongressDay"], message: MSG_ADMIN.lastDayBeforeFirst });
  }
});
export type TCongressInput = z.input<typeof ZCongressInput>;

/**
 * A package's `crosssellLink` is shown as a link on its page when it is a web address or a path of this
 * app (`linkTarget`, which the page applies too): anything else would be saved and never shown, so it is
 * refused.
 */
const isCrosssellLink = (v: Record<string, string>) =>
  !v.crosssellLink?.trim() || linkTarget(v.crosssellLink) !== null;

/** The package form (`congressPackageData`). */
export const ZPackageInput = zForm({
  id: ZId.optional(),
  name: required(300, "Der Name", MSG_ADMIN.nameRequired),
  congress: z
    .unknown()
    .refine((v) => v !== null && v !== undefined && v !== "" && v !== 0, MSG_ADMIN.congressRequired)
    .pipe(zRef(MSG_ADMIN.congressRequired)),
  externalId: zId(MSG_ADMIN.externalIdRequired),
  description: required(20_000, "Die Beschreibung", MSG_ADMIN.descriptionRequired),
  picture,
  availabilityDate: optionalIsoDate,
  extraParameters: z
    .union([extraParameterMap, extraParameterPairs.pipe(extraParameterMap)], {
      error: MSG_ADMIN.extraInvalid,
    })
    .refine(isCrosssellLink, { message: MSG_ADMIN.crosssellLinkInvalid, path: ["crosssellLink"] })
    .default({}),
});
export type TPackageInput = z.input<typeof ZPackageInput>;

/** The user edit dialog (`userData`). */
export const ZUserUpdateInput = zForm({
  id: ZId,
  firstname: zPersonName("Der Vorname", MSG.firstnameRequired),
  lastname: zPersonName("Der Nachname", MSG.lastnameRequired),
  email: z
    .string({ error: MSG.emailInvalid })
    .trim()
    .max(254, MSG.emailInvalid)
    .pipe(z.email(MSG.emailInvalid)),
  active: flag,
  admin: flag,
});
export type TUserUpdateInput = z.input<typeof ZUserUpdateInput>;

export const ZUserListInput = zForm({
  name: zSearch(SEARCH_MAX.userName),
  email: zSearch(SEARCH_MAX.userEmail),
  page: ZPage,
});

const exclusiveDate = z
  .string({ error: MSG_ADMIN.exclusiveDateInvalid })
  .trim()
  .max(10, MSG_ADMIN.exclusiveDateInvalid)
  .default("")
  .refine((v) => v === "" || parseGermanDate(v) !== null, MSG_ADMIN.exclusiveDateInvalid);

/** The video content form (`congressContentData`). */
export const ZContentInput = zForm({
  id: ZId.optional(),
  congress: zRef(MSG_ADMIN.congressRequired),
  type: zChoice(CONTENT_TYPES, MSG_ADMIN.contentTypeInvalid).default("vimeo-url"),
  data: zForm({
    days: z
      .array(
        zForm({
          name: required(200, "Der Name des Tages", MSG_ADMIN.dayNameRequired),
          exclusive_date: exclusiveDate,
          videos: z
            .array(
              zForm({
                url: z
                  .string({ error: MSG_ADMIN.videoUrlRequired })
                  .trim()
                  .min(1, MSG_ADMIN.videoUrlRequired)
                  .max(2000, tooLong("Die Adresse des Videos", 2000))
                  .refine((v) => v === "" || isWebAddress(v), MSG_ADMIN.videoUrlInvalid),
                comment: plainText(1000, "Der Kommentar").default(""),
                /** the organiser's length (ADR 0105): counts before Vimeo's, which private videos lack */
                duration: zVideoLength,
                /** the organiser says it is a live stream (ADR 0126): credited by the clock */
                live: zVideoLive,
              }),
              { error: MSG_FIELD.form },
            )
            .max(200, MSG_ADMIN.tooManyVideos),
        }),
        { error: MSG_FIELD.form },
      )
      .max(60, MSG_ADMIN.tooManyDays),
  }),
});
export type TContentInput = z.input<typeof ZContentInput>;

/** The content editor asks Vimeo's length of a video address as it is typed (ADR 0105). */
export const ZVideoLengthInput = zForm({
  url: z
    .string({ error: MSG_ADMIN.videoUrlRequired })
    .trim()
    .min(1, MSG_ADMIN.videoUrlRequired)
    .max(2000, tooLong("Die Adresse des Videos", 2000)),
});

/** The contents table's search: text in the event's title, a day's name or a video's comment. */
export const ZContentListInput = zForm({ search: zSearch(SEARCH_MAX.contents) });
/** One page of the contents table, searched as `ZContentListInput`. */
export const ZContentPageInput = ZContentListInput.extend(ZPageInput.shape);
export type TContentPageInput = z.input<typeof ZContentPageInput>;

/**
 * Pasting a whole embed code into a video URL field: the iframe's `src` when it points at the Vimeo player,
 * otherwise the text unchanged.
 */
export function extractIframeSrc(text: string): string {
  const match = text.match(/<iframe\b[^>]*\bsrc\s*=\s*(["'])(.*?)\1/i);
  const src = match?.[2]?.replace(/&amp;/g, "&").trim();
  if (!src) {
    return text;
  }
  try {
    const url = new URL(src.startsWith("//") ? `https:${src}` : src);
    return url.hostname === "player.vimeo.com" ? url.toString() : text;
  } catch {
    return text;
  }
}

export const MSG_TEMPLATES = {
  subjectRequired: "Bitte geben Sie einen Betreff ein.",
  unknownName: "Diese E-Mail gibt es nicht.",
  copyDifferent: "Bitte wählen Sie zwei verschiedene Veranstaltungen.",
  copyFromRequired: "Bitte wählen Sie die Veranstaltung, deren Vorlagen kopiert werden.",
  copyToRequired: "Bitte wählen Sie die Veranstaltung, in die kopiert wird.",
  copySourceEmpty:
    "„{title}“ hat keine eigenen Vorlagen, deshalb wurde nichts kopiert. Legen Sie dort zuerst mit „Neue Vorlage“ eine an.",
  congressRequired: "Bitte wählen Sie die Veranstaltung, für die die Vorlage gelten soll.",
  startRequired: "Bitte wählen Sie die allgemeine Vorlage, mit der die neue beginnt.",
  notPerEvent:
    "Diese E-Mail wird nicht zu einer einzelnen Veranstaltung verschickt und hat deshalb nur eine allgemeine Vorlage.",
  created: "Die Vorlage für „{title}“ wurde angelegt. Sie können sie jetzt bearbeiten.",
  unknownVariables: "Diese Variablen kennt die E-Mail nicht; sie bleiben leer:",
  duplicate: "Für diese E-Mail und diese Veranstaltung gibt es bereits eine Vorlage.",
  syntaxError:
    "Die Vorlage enthält einen Fehler bei den Platzhaltern ({{…}}) und kann so nicht versendet werden.",
  unsafeSyntax:
    "Die Vorlage enthält Platzhalter, die nicht erlaubt sind. Möglich sind Variablen wie {{firstname}} und Bedingungen wie {{#if newsletter}} … {{else}} … {{/if}} oder {{#unless …}} außerhalb von HTML-Tags; Kommentare, Teilvorlagen, {{{…}}}, {{&…}} und {{~…}} sind nicht möglich.",
} as const;

/** The template edit dialog (`mailTemplateData`). */
export const ZMailTemplateInput = zForm({
  id: ZId.optional(),
  name: z
    .string({ error: MSG_TEMPLATES.unknownName })
    .trim()
    .min(1, MSG_TEMPLATES.unknownName)
    .max(100, MSG_TEMPLATES.unknownName),
  congress: zRef(MSG_TEMPLATES.congressRequired).nullable().default(null),
  subject: required(300, "Der Betreff", MSG_TEMPLATES.subjectRequired),
  content: zText(200_000, "Der Inhalt").default(""),
  description: zText(5000, "Die interne Beschreibung").default(""),
});
export type TMailTemplateInput = z.input<typeof ZMailTemplateInput>;

/**
 * "Neue Vorlage": an event's own template of one mail, starting from the general template of that mail
 * (or the built-in default where none is stored).
 */
export const ZMailTemplateCreateInput = zForm({
  congress: zRef(MSG_TEMPLATES.congressRequired),
  name: z
    .string({ error: MSG_TEMPLATES.startRequired })
    .trim()
    .min(1, MSG_TEMPLATES.startRequired)
    .max(100, MSG_TEMPLATES.unknownName),
});
export type TMailTemplateCreateInput = z.input<typeof ZMailTemplateCreateInput>;

/** The general templates (`congressId` null) or those of one event. */
export const ZMailTemplateListInput = zForm({ congressId: ZId.nullable().default(null) });
/** One page of the templates table, chosen as `ZMailTemplateListInput`. */
export const ZMailTemplatePageInput = ZMailTemplateListInput.extend(ZPageInput.shape);
export type TMailTemplatePageInput = z.input<typeof ZMailTemplatePageInput>;

/**
 * The copy form (`copy_from`, `copy_to`): two different events. Each field names what it lacks; that the
 * two must differ is said once, under the target.
 */
export const ZCopyTemplatesInput = zForm({
  copy_from: zId(MSG_TEMPLATES.copyFromRequired),
  copy_to: zId(MSG_TEMPLATES.copyToRequired),
}).refine((v) => v.copy_from !== v.copy_to, { message: MSG_TEMPLATES.copyDifferent, path: ["copy_to"] });

/** The copy form asks, before its confirmation, which templates the chosen source would give. */
export const ZCopySourceInput = zForm({ congressId: zId(MSG_TEMPLATES.copyFromRequired) });
