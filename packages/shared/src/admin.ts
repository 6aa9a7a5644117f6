import { z } from "zod";
import "./zod-locale";
import { parseGermanDate } from "./congresses";
import { MAX_ID } from "./constants";
import { ZId, ZRef, zId, zRef } from "./ids";
import { ZPage, ZPageInput } from "./paging";

/** Plain text: control characters other than line breaks and tabs are dropped. */
const plainText = (max: number, missing?: string) =>
  z
    .string(missing ? { error: missing } : undefined)
    .max(max)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
    .transform((v) => v.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, "").trim());

const required = (max: number, message: string) => plainText(max, message).pipe(z.string().min(1, message));
/** a flag from JSON or a form: true/false, "true"/"false", "1"/"0" (never "false" read as true) */
const flag = z
  .union([z.boolean(), z.enum(["true", "false", "1", "0"])])
  .transform((v) => v === true || v === "true" || v === "1");
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "Bitte wählen Sie ein gültiges Datum.");
const dayRef = z.object({ date: isoDate }).loose();
const checkoutId = z.coerce.number().int().min(0).max(MAX_ID).default(0);
/**
 * Whether a stored link is safe for an `href`: a web page (http, https) or a path of our site, never
 * `javascript:`, `data:` or `vbscript:`. The URL parser drops tabs, line breaks and leading spaces before
 * the scheme just as browsers do, so `java\tscript:` is caught too.
 */
export function isWebLink(value: string): boolean {
  try {
    const { protocol } = new URL(value, "https://relative.invalid/");
    return protocol === "https:" || protocol === "http:";
  } catch {
    return false;
  }
}

const URL_INVALID = "Bitte geben Sie eine gültige Adresse (URL) ein.";
const optionalUrl = z
  .string()
  .trim()
  .max(2000)
  .transform((v) => (v === "" ? null : v))
  .pipe(z.url(URL_INVALID).refine(isWebLink, URL_INVALID).nullable())
  .nullish();
const extraParameters = z
  .record(z.string().trim().min(1).max(100), z.string().max(2000))
  .refine((v) => Object.keys(v).length <= 30, "Höchstens 30 Zusatzparameter.")
  .default({});

export const MSG_ADMIN = {
  titleRequired: "Bitte geben Sie einen Titel ein.",
  descriptionRequired: "Bitte geben Sie eine Beschreibung ein.",
  nameRequired: "Bitte geben Sie einen Namen ein.",
  congressRequired: "Bitte wählen Sie eine Veranstaltung.",
  externalIdRequired: "Bitte geben Sie die Checkout-ID (größer als 0) ein.",
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

/** The event form (`congressData`). */
export const ZCongressInput = z
  .object({
    id: ZId.optional(),
    title: required(300, MSG_ADMIN.titleRequired),
    description: required(20_000, MSG_ADMIN.descriptionRequired),
    picture: z.string().max(200).nullish(),
    webinar: flag.default(false),
    webinarUrl: optionalUrl,
    webinarStartTime: z
      .string()
      .trim()
      .transform((v) => (v === "" ? null : v))
      .pipe(
        z
          .string()
          .regex(/^([01]\d|2[0-3]):[0-5]\d$/, MSG_ADMIN.startTimeInvalid)
          .nullable(),
      )
      .nullish(),
    visible: flag.default(false),
    firstCongressDay: dayRef.nullish(),
    lastCongressDay: dayRef.nullish(),
    digistoreIdTicket: checkoutId,
    digistoreIdTicketAndPackage: checkoutId,
    extraParameters,
  })
  .superRefine((v, ctx) => {
    if (!v.firstCongressDay) {
      ctx.addIssue({ code: "custom", path: ["firstCongressDay"], message: MSG_ADMIN.firstDayRequired });
    } else if (v.lastCongressDay && v.lastCongressDay.date < v.firstCongressDay.date) {
      ctx.addIssue({ code: "custom", path: ["lastCongressDay"], message: MSG_ADMIN.lastDayBeforeFirst });
    }
  });
export type TCongressInput = z.input<typeof ZCongressInput>;

/** The package form (`congressPackageData`). */
export const ZPackageInput = z.object({
  id: ZId.optional(),
  name: required(300, MSG_ADMIN.nameRequired),
  congress: z
    .unknown()
    .refine((v) => v !== null && v !== undefined && v !== "" && v !== 0, MSG_ADMIN.congressRequired)
    .pipe(ZRef),
  externalId: zId(MSG_ADMIN.externalIdRequired),
  description: required(20_000, MSG_ADMIN.descriptionRequired),
  picture: z.string().max(200).nullish(),
  availabilityDate: isoDate.nullish(),
  extraParameters,
});
export type TPackageInput = z.input<typeof ZPackageInput>;

/** The user edit dialog (`userData`). */
export const ZUserUpdateInput = z.object({
  id: ZId,
  firstname: required(100, "Vorname ist ein Pflichtfeld"),
  lastname: required(100, "Nachname ist ein Pflichfeld"),
  email: z.string().trim().max(254).pipe(z.email("Bitte geben Sie eine gültige E-Mail-Adresse ein.")),
  active: flag,
  admin: flag,
});
export type TUserUpdateInput = z.input<typeof ZUserUpdateInput>;

export const ZUserListInput = z.object({
  name: z.string().trim().max(200).default(""),
  email: z.string().trim().max(254).default(""),
  page: ZPage,
});

const exclusiveDate = z
  .string()
  .trim()
  .max(10)
  .default("")
  .refine((v) => v === "" || parseGermanDate(v) !== null, MSG_ADMIN.exclusiveDateInvalid);

/** The video content form (`congressContentData`). */
export const ZContentInput = z.object({
  id: ZId.optional(),
  congress: ZRef,
  type: z.enum(["vimeo", "vimeo-url"]).default("vimeo-url"),
  data: z.object({
    days: z
      .array(
        z.object({
          name: required(200, MSG_ADMIN.dayNameRequired),
          exclusive_date: exclusiveDate,
          videos: z
            .array(
              z.object({
                url: z
                  .string()
                  .trim()
                  .min(1, MSG_ADMIN.videoUrlRequired)
                  .max(2000)
                  .refine(isWebLink, MSG_ADMIN.videoUrlInvalid),
                comment: plainText(1000).default(""),
              }),
            )
            .max(200),
        }),
      )
      .max(60),
  }),
});
export type TContentInput = z.input<typeof ZContentInput>;

/** The contents table's search: text in the event's title, a day's name or a video's comment. */
export const ZContentListInput = z.object({ search: z.string().trim().max(200).default("") });
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
  copySourceEmpty:
    "„{title}“ hat keine eigenen Vorlagen, deshalb wurde nichts kopiert. Legen Sie dort zuerst mit „Neue Vorlage“ eine an.",
  /** after the spec's "E-Mail-Templates wurden erfolgreich kopiert.": how many */
  copiedCount: "{count} Vorlagen kopiert.",
  copiedOne: "1 Vorlage kopiert.",
  congressRequired: "Bitte wählen Sie die Veranstaltung, für die die Vorlage gelten soll.",
  startRequired: "Bitte wählen Sie die allgemeine Vorlage, mit der die neue beginnt.",
  created: "Die Vorlage für „{title}“ wurde angelegt. Sie können sie jetzt bearbeiten.",
  unknownVariables: "Diese Variablen kennt die E-Mail nicht; sie bleiben leer:",
  duplicate: "Für diese E-Mail und diese Veranstaltung gibt es bereits eine Vorlage.",
  syntaxError:
    "Die Vorlage enthält einen Fehler bei den Platzhaltern ({{…}}) und kann so nicht versendet werden.",
  unsafeSyntax:
    "Die Vorlage enthält Platzhalter, die nicht erlaubt sind. Möglich sind Variablen wie {{firstname}} und Bedingungen wie {{#if newsletter}} … {{else}} … {{/if}} oder {{#unless …}} außerhalb von HTML-Tags; Kommentare, Teilvorlagen, {{{…}}}, {{&…}} und {{~…}} sind nicht möglich.",
} as const;

/** The template edit dialog (`mailTemplateData`). */
export const ZMailTemplateInput = z.object({
  id: ZId.optional(),
  name: z.string().trim().min(1, MSG_TEMPLATES.unknownName).max(100),
  congress: z.union([ZRef, z.null()]).default(null),
  subject: required(300, MSG_TEMPLATES.subjectRequired),
  content: z.string().max(200_000).default(""),
  description: z.string().max(5000).default(""),
});
export type TMailTemplateInput = z.input<typeof ZMailTemplateInput>;

/**
 * "Neue Vorlage": an event's own template of one mail, starting from the general template of that mail
 * (or the built-in default where none is stored).
 */
export const ZMailTemplateCreateInput = z.object({
  congress: zRef(MSG_TEMPLATES.congressRequired),
  name: z
    .string({ error: MSG_TEMPLATES.startRequired })
    .trim()
    .min(1, MSG_TEMPLATES.startRequired)
    .max(100, MSG_TEMPLATES.unknownName),
});
export type TMailTemplateCreateInput = z.input<typeof ZMailTemplateCreateInput>;

/** The general templates (`congressId` null) or those of one event. */
export const ZMailTemplateListInput = z.object({ congressId: ZId.nullable().default(null) });
/** One page of the templates table, chosen as `ZMailTemplateListInput`. */
export const ZMailTemplatePageInput = ZMailTemplateListInput.extend(ZPageInput.shape);
export type TMailTemplatePageInput = z.input<typeof ZMailTemplatePageInput>;

/** The copy form (`copy_from`, `copy_to`): two different events. */
export const ZCopyTemplatesInput = z
  .object({
    copy_from: zId(MSG_TEMPLATES.copyDifferent),
    copy_to: zId(MSG_TEMPLATES.copyDifferent),
  })
  .refine((v) => v.copy_from !== v.copy_to, { message: MSG_TEMPLATES.copyDifferent, path: ["copy_to"] });
