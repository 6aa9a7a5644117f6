/**
 * What each admin editor's form holds and how it maps to the procedure's input (and back from the record
 * the list answers). Pure functions, tested without a browser in admin-forms.test.ts.
 */
import {
  formatGermanDate,
  parseGermanDate,
  type TCongressInput,
  type TMailTemplateInput,
  type TPackageInput,
} from "@app/shared";
import type { RouterOutputs } from "@/lib/types";

type Admin = RouterOutputs["admin"];

// ---- events: days typed as TT.MM.JJJJ, checkout ids as text

export type AdminCongress = Admin["congresses"]["list"][number];

export interface CongressForm {
  id?: number;
  title: string;
  description: string;
  picture: string | null;
  webinar: boolean;
  webinarUrl: string;
  webinarStartTime: string;
  visible: boolean;
  /** TT.MM.JJJJ, typed or set by the date picker */
  firstDay: string;
  lastDay: string;
  digistoreIdTicket: string;
  digistoreIdTicketAndPackage: string;
}

export const emptyCongressForm: CongressForm = {
  title: "",
  description: "",
  picture: null,
  webinar: false,
  webinarUrl: "",
  webinarStartTime: "",
  visible: false,
  firstDay: "",
  lastDay: "",
  digistoreIdTicket: "0",
  digistoreIdTicketAndPackage: "0",
};

export const congressToForm = (e: Omit<AdminCongress, "participationCount">): CongressForm => ({
  id: e.id,
  title: e.title,
  description: e.description,
  picture: e.picture,
  webinar: e.webinar,
  webinarUrl: e.webinarUrl ?? "",
  webinarStartTime: e.webinarStartTime ?? "",
  visible: e.visible,
  firstDay: formatGermanDate(e.firstDay),
  lastDay: formatGermanDate(e.lastDay ?? e.firstDay),
  digistoreIdTicket: String(e.digistoreIdTicket),
  digistoreIdTicketAndPackage: String(e.digistoreIdTicketAndPackage),
});

/** A typed day as the schema's `{date}`; a day the schema cannot read is passed on for it to refuse. */
const dayInput = (text: string) => ({ date: parseGermanDate(text) ?? text.trim() });

/**
 * The procedure's input of the form; `kept` are the stored event's values the form does not show (its extra
 * parameters), sent back as they are so a save does not wipe them.
 */
export function toCongressInput(
  f: CongressForm,
  kept: Partial<Pick<AdminCongress, "extraParameters">> = {},
): TCongressInput {
  return {
    id: f.id,
    title: f.title,
    description: f.description,
    picture: f.picture,
    webinar: f.webinar,
    webinarUrl: f.webinarUrl,
    webinarStartTime: f.webinarStartTime,
    visible: f.visible,
    firstCongressDay: f.firstDay.trim() ? dayInput(f.firstDay) : null,
    // two days are chosen, also for a one-day event (spec): a missing last day is refused as no date
    lastCongressDay: f.firstDay.trim() || f.lastDay.trim() ? dayInput(f.lastDay) : null,
    digistoreIdTicket: f.digistoreIdTicket || "0",
    digistoreIdTicketAndPackage: f.digistoreIdTicketAndPackage || "0",
    extraParameters: kept.extraParameters ?? {},
  };
}

export const congressFieldOf = { firstCongressDay: "firstDay", lastCongressDay: "lastDay" } as const;

// ---- packages: the event and the checkout id as text, extra parameters as a list of pairs

export type AdminPackage = Admin["packages"]["list"][number];

export interface PackageForm {
  id?: number;
  name: string;
  congress: string;
  externalId: string;
  description: string;
  picture: string | null;
  /** JJJJ-MM-TT from the browser's date field, or "" */
  availabilityDate: string;
  extra: { key: string; value: string }[];
}

export const emptyPackageForm: PackageForm = {
  name: "",
  congress: "",
  externalId: "",
  description: "",
  picture: null,
  availabilityDate: "",
  extra: [],
};

export const packageToForm = (p: Omit<AdminPackage, "congress">): PackageForm => ({
  id: p.id,
  name: p.name,
  congress: String(p.congressId),
  externalId: String(p.externalId),
  description: p.description,
  picture: p.picture,
  availabilityDate: p.availabilityDate ?? "",
  extra: Object.entries(p.extraParameters).map(([key, value]) => ({ key, value })),
});

export const toPackageInput = (f: PackageForm): TPackageInput => ({
  id: f.id,
  name: f.name,
  congress: f.congress === "" ? null : f.congress,
  externalId: f.externalId,
  description: f.description,
  picture: f.picture,
  availabilityDate: f.availabilityDate === "" ? null : f.availabilityDate,
  extraParameters: Object.fromEntries(
    f.extra.filter((e) => e.key.trim() !== "").map((e) => [e.key.trim(), e.value]),
  ),
});

export const packageFieldOf = { extraParameters: "extra" } as const;

// ---- contents: shaped like the schema's input, so every message's path is the field's name

export type AdminContent = Admin["contents"]["list"][number];

export interface DayForm {
  name: string;
  /** TT.MM.JJJJ or "" (the whole event) */
  exclusive_date: string;
  videos: { url: string; comment: string }[];
}

export interface ContentForm {
  id?: number;
  congress: string;
  type: "vimeo" | "vimeo-url";
  data: { days: DayForm[] };
}

export const newDay = (n: number): DayForm => ({
  name: `Tag ${n}`,
  exclusive_date: "",
  videos: [{ url: "", comment: "" }],
});

export const newContentForm = (): ContentForm => ({
  congress: "",
  type: "vimeo-url",
  data: { days: [newDay(1)] },
});

export const contentToForm = (c: Pick<AdminContent, "id" | "congress" | "type" | "data">): ContentForm => ({
  id: c.id,
  congress: String(c.congress.id),
  type: c.type,
  data: {
    days: c.data.days.map((d) => ({
      name: d.name,
      exclusive_date: d.exclusive_date ?? "",
      videos: (d.videos ?? []).map((v) => ({ url: v.url, comment: v.comment ?? "" })),
    })),
  },
});

// ---- users: the editable fields of the loaded record; participations and attendance are only shown

export type UserDetails = Admin["users"]["get"];
export type UserForm = Omit<UserDetails, "participations" | "attendance">;

export const userToForm = ({ participations: _p, attendance: _a, ...fields }: UserDetails): UserForm =>
  fields;

// ---- mail templates: subject and content are edited; the rest of the template goes along as it is

export type MailTemplate = Admin["mailTemplates"]["list"][number];
export interface TemplateForm {
  subject: string;
  content: string;
}

export const templateToForm = (t: Pick<MailTemplate, "subject" | "content">): TemplateForm => ({
  subject: t.subject,
  content: t.content,
});

export const toTemplateInput =
  (t: Pick<MailTemplate, "id" | "name" | "congress" | "description">) =>
  (values: TemplateForm): TMailTemplateInput => ({
    id: t.id,
    name: t.name,
    congress: t.congress?.id ?? null,
    description: t.description,
    ...values,
  });

export const emptyCopyForm = { copy_from: "", copy_to: "" };

/** "Neue Vorlage": the event and the general template to start from, as the selects hold them ("" = none) */
export interface NewTemplateForm {
  congress: string;
  name: string;
}

/** the schema's input: `null` for no event, which the schema refuses under "congress" */
export const toNewTemplateInput = (f: NewTemplateForm): { congress: string | null; name: string } => ({
  congress: f.congress === "" ? null : f.congress,
  name: f.name,
});

// ---- orders an admin creates: the chosen people and one package or event

export type OrderKind = "package" | "ticket";

export interface ChosenUser {
  id: number;
  label: string;
}

export interface OrderForm {
  users: ChosenUser[];
  /** the package's or the event's id as text, "" while none is chosen */
  product: string;
}

export const emptyOrderForm = (): OrderForm => ({ users: [], product: "" });

/** the schema's input: `null` for no choice, which the schema refuses under "product" */
export const toOrderInput =
  (kind: OrderKind) =>
  ({
    users,
    product,
  }: OrderForm): { users: number[]; congressPackage?: string | null; congress?: string | null } => ({
    users: users.map((u) => u.id),
    [kind === "package" ? "congressPackage" : "congress"]: product === "" ? null : product,
  });

export const orderFieldOf = { congressPackage: "product", congress: "product" } as const;
