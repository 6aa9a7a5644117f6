/**
 * What each admin editor's form holds where it differs from the record the list answers. The form's values
 * are the shared schema's input itself (the schemas read a day typed as TT.MM.JJJJ, an id or a checkout id
 * typed as text, "" for no date, the package's extra parameters as a list of pairs), so a form needs no
 * mapping on the way to its procedure, only from the stored record into its fields. Pure functions, tested
 * without a browser in admin-forms.test.ts.
 */
import {
  addDays,
  countOf,
  DEFAULT_PASS_PERCENT,
  DEFAULT_REQUIRED_PERCENT,
  formatGermanDate,
  formatVideoLength,
  type IsoDate,
  type TCongressInput,
  type TLearningCheckInput,
  type TMailTemplateInput,
  type TPackageInput,
} from "@app/shared";
import type { RouterOutputs } from "@/lib/types";

type Admin = RouterOutputs["admin"];

// ---- events: the days as TT.MM.JJJJ, checkout ids as text

export type AdminCongress = Admin["congresses"]["list"][number];

export interface CongressForm extends TCongressInput {
  title: string;
  description: string;
  picture: string | null;
  webinar: boolean;
  webinarUrl: string;
  webinarStartTime: string;
  visible: boolean;
  /** TT.MM.JJJJ, typed or set by the date picker */
  firstCongressDay: string;
  lastCongressDay: string;
  digistoreIdTicket: string;
  digistoreIdTicketAndPackage: string;
  /** not shown: sent back as stored, so a save does not wipe them */
  extraParameters: Record<string, string>;
  /** Fortbildung (ADR 0105): numbers as typed, "" for none */
  fortbildung: boolean;
  vnr: string;
  fortbildungCategory: string;
  pointsPerDay: string;
  requiredPercent: string;
  presenceChecksPerDay: string;
  presenceChecksRequired: string;
  webinarMinutes: string;
}

export const emptyCongressForm: CongressForm = {
  title: "",
  description: "",
  picture: null,
  webinar: false,
  webinarUrl: "",
  webinarStartTime: "",
  visible: false,
  firstCongressDay: "",
  lastCongressDay: "",
  digistoreIdTicket: "0",
  digistoreIdTicketAndPackage: "0",
  extraParameters: {},
  fortbildung: false,
  vnr: "",
  fortbildungCategory: "",
  pointsPerDay: "",
  requiredPercent: String(DEFAULT_REQUIRED_PERCENT),
  presenceChecksPerDay: "0",
  presenceChecksRequired: "0",
  webinarMinutes: "",
};

const numberText = (value: number | null) => (value === null ? "" : String(value));

/** An event as stored, without what the list counts or reads off today (participations, packages, its timing). */
export type StoredCongress = Omit<
  AdminCongress,
  "participationCount" | "packageCount" | "inProgress" | "inFuture" | "inPast"
>;

export const congressToForm = (e: StoredCongress): CongressForm => ({
  id: e.id,
  title: e.title,
  description: e.description,
  picture: e.picture,
  webinar: e.webinar,
  webinarUrl: e.webinarUrl ?? "",
  webinarStartTime: e.webinarStartTime ?? "",
  visible: e.visible,
  // two days are chosen, also for a one-day event (spec)
  firstCongressDay: formatGermanDate(e.firstDay),
  lastCongressDay: formatGermanDate(e.lastDay ?? e.firstDay),
  digistoreIdTicket: String(e.digistoreIdTicket),
  digistoreIdTicketAndPackage: String(e.digistoreIdTicketAndPackage),
  extraParameters: e.extraParameters,
  fortbildung: e.fortbildung,
  vnr: e.vnr ?? "",
  fortbildungCategory: e.fortbildungCategory ?? "",
  pointsPerDay: numberText(e.pointsPerDay),
  requiredPercent: String(e.requiredPercent),
  presenceChecksPerDay: String(e.presenceChecksPerDay),
  presenceChecksRequired: String(e.presenceChecksRequired),
  webinarMinutes: numberText(e.webinarMinutes),
});

// ---- packages: the event and the checkout id as text, extra parameters as a list of pairs

export type AdminPackage = Admin["packages"]["list"][number];

export interface PackageForm extends TPackageInput {
  name: string;
  congress: string;
  externalId: string;
  description: string;
  picture: string | null;
  /** TT.MM.JJJJ as typed (the event form's days too), or "" */
  availabilityDate: string;
  extraParameters: { key: string; value: string }[];
}

export const emptyPackageForm: PackageForm = {
  name: "",
  congress: "",
  externalId: "",
  description: "",
  picture: null,
  availabilityDate: "",
  extraParameters: [],
};

export const packageToForm = (p: Omit<AdminPackage, "congress">): PackageForm => ({
  id: p.id,
  name: p.name,
  congress: String(p.congressId),
  externalId: String(p.externalId),
  description: p.description,
  picture: p.picture,
  availabilityDate: p.availabilityDate ? formatGermanDate(p.availabilityDate) : "",
  extraParameters: Object.entries(p.extraParameters).map(([key, value]) => ({ key, value })),
});

// ---- contents: shaped like the schema's input, so every message's path is the field's name

export type AdminContent = Admin["contents"]["list"][number];

export interface VideoForm {
  url: string;
  comment: string;
  /** the organiser's length as typed, m:ss or h:mm:ss; "" for none (Vimeo's counts, ADR 0105) */
  duration: string;
  /** the organiser says it is a live stream, credited by the clock (ADR 0126); saved only when ticked */
  live: boolean;
}

export interface DayForm {
  name: string;
  /** TT.MM.JJJJ or "" (the whole event) */
  exclusive_date: string;
  videos: VideoForm[];
}

export interface ContentForm {
  id?: number;
  congress: string;
  type: "vimeo" | "vimeo-url";
  data: { days: DayForm[] };
}

export const newVideo = (): VideoForm => ({ url: "", comment: "", duration: "", live: false });

export const newDay = (n: number): DayForm => ({
  name: `Tag ${n}`,
  exclusive_date: "",
  videos: [newVideo()],
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
      videos: (d.videos ?? []).map((v) => ({
        url: v.url,
        comment: v.comment ?? "",
        duration: typeof v.duration === "number" && v.duration > 0 ? formatVideoLength(v.duration) : "",
        live: v.live === true,
      })),
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

/** the field that names the product of an order of each kind (the spec's forms) */
const PRODUCT_FIELD = { package: "congressPackage", ticket: "congress" } as const satisfies Record<
  OrderKind,
  string
>;

/** the schema's input: the chosen people as they are (the schema reads their ids), the product by its kind's name */
export const toOrderInput =
  (kind: OrderKind) =>
  ({ users, product }: OrderForm): { users: ChosenUser[]; congressPackage?: string; congress?: string } => ({
    users,
    [PRODUCT_FIELD[kind]]: product,
  });

export const orderFieldOf = { congressPackage: "product", congress: "product" } as const;

/** The success message after the admin's orders: "1 Bestellung angelegt; die Person …", "2 Bestellungen …". */
export const ordersCreatedText = (count: number) =>
  `${countOf(count, "Bestellung", "Bestellungen")} angelegt; ${count === 1 ? "die" : "jede"} Person erhält eine E-Mail.`;

// ---- learning checks (ADR 0119): the schema's input, numbers as text, "" for the whole package

export type AdminLearningCheck = Admin["learningChecks"]["get"];

export interface LearningCheckForm extends TLearningCheckInput {
  packageId: string;
  /** JJJJ-MM-TT of a day of the package's event, or "" for the whole package */
  day: string;
  passPercent: string;
  vnr: string;
  category: string;
  points: string;
  questions: {
    id?: number;
    question: string;
    answers: { text: string; correct: boolean }[];
    explanation: string;
  }[];
}

export const newLearningQuestion = (): LearningCheckForm["questions"][number] => ({
  question: "",
  answers: [
    { text: "", correct: false },
    { text: "", correct: false },
    { text: "", correct: false },
  ],
  explanation: "",
});

export const emptyLearningCheckForm = (): LearningCheckForm => ({
  packageId: "",
  day: "",
  passPercent: String(DEFAULT_PASS_PERCENT),
  vnr: "",
  category: "",
  points: "",
  questions: [newLearningQuestion()],
});

export const learningCheckToForm = (c: AdminLearningCheck): LearningCheckForm => ({
  id: c.id,
  packageId: String(c.packageId),
  day: c.day ?? "",
  passPercent: String(c.passPercent),
  vnr: c.vnr ?? "",
  category: c.category ?? "",
  points: c.points === null ? "" : String(c.points),
  questions: c.questions.map((q) => ({
    id: q.id,
    question: q.question,
    answers: q.answers.map((a) => ({ text: a.text, correct: a.correct })),
    explanation: q.explanation,
  })),
});

/** The calendar days of an event, first to last (JJJJ-MM-TT). */
export function congressDays(firstDay: string, lastDay: string | null): string[] {
  const days: string[] = [];
  for (
    let day = firstDay;
    day <= (lastDay ?? firstDay) && days.length < 366;
    day = addDays(day as IsoDate, 1)
  ) {
    days.push(day);
  }
  return days;
}
