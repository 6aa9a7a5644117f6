import type { RouterOutputs } from "@/lib/types";

/**
 * What the API would answer, for the query cache of a component test (test/app.tsx): typed by the router's
 * outputs, so a changed procedure fails the web typecheck here as well.
 */
type Admin = RouterOutputs["admin"];
type Row<T extends readonly unknown[]> = T[number];

const CREATED = new Date("2026-09-01T08:00:00Z");

/** The one event of the tests, as the admin's list and the visitor's overview both show it. */
const EVENT = {
  id: 7,
  title: "Kongress Psychotherapie 2026",
  description: "Drei Tage Vorträge und Diskussionen rund um die Psychotherapie.",
  picture: null,
  webinar: false,
  webinarUrl: null,
  webinarStartTime: null,
  firstDay: "2026-12-04",
  lastDay: "2026-12-06",
  digistoreIdTicket: 0,
  digistoreIdTicketAndPackage: 0,
};

/** One page of a server-paged admin table holding `items`. */
export const adminPage = <Item>(items: Item[]) => ({
  items,
  total: items.length,
  totalExact: true,
  page: 1,
  pageSize: 20,
});

export const adminCongress = (
  fields: Partial<Row<Admin["congresses"]["list"]>> = {},
): Row<Admin["congresses"]["list"]> => ({
  ...EVENT,
  visible: true,
  extraParameters: {},
  fortbildung: false,
  vnr: null,
  fortbildungCategory: null,
  pointsPerDay: null,
  requiredPercent: 80,
  presenceChecksPerDay: 0,
  presenceChecksRequired: 0,
  webinarMinutes: null,
  createdAt: CREATED,
  updatedAt: CREATED,
  inProgress: false,
  inFuture: true,
  inPast: false,
  participationCount: 12,
  packageCount: 1,
  ...fields,
});

export const adminPackage = (): Row<Admin["packages"]["list"]> => ({
  id: 3,
  name: "Aufzeichnungen Psychotherapie 2026",
  description: "Alle Vorträge des Kongresses zum Nachsehen.",
  picture: null,
  congressId: 7,
  congress: { id: 7, title: "Kongress Psychotherapie 2026" },
  externalId: 4711,
  availabilityDate: null,
  extraParameters: {},
  createdAt: CREATED,
  updatedAt: CREATED,
});

export const userRow = (): Row<Admin["users"]["list"]["items"]> => ({
  id: 21,
  firstname: "Max",
  lastname: "Aachen",
  email: "max.aachen@example.com",
  admin: false,
  active: true,
  newsletter: false,
  migrationPending: false,
  emailConfirmed: true,
  participations: ["Kongress Psychotherapie 2026"],
});

export const userRecord = (): Admin["users"]["get"] => ({
  id: 21,
  firstname: "Max",
  lastname: "Aachen",
  email: "max.aachen@example.com",
  admin: false,
  active: true,
  participations: [{ id: 5, congressTitle: "Kongress Psychotherapie 2026", createdAt: CREATED }],
  attendance: [],
});

export const contentRow = (): Row<Admin["contents"]["getPage"]["items"]> => ({
  id: 11,
  type: "vimeo-url",
  congress: { id: 7, title: "Kongress Psychotherapie 2026" },
  data: {
    days: [
      {
        name: "Tag 1",
        exclusive_date: "",
        videos: [{ url: "https://vimeo.com/76979871", comment: "Eröffnung", duration: 3600 }],
      },
    ],
  },
});

export const mailTemplate = (): Row<Admin["mailTemplates"]["getPage"]["items"]> => ({
  id: 2,
  name: "participation-confirmation",
  description: "<p>Nach der Anmeldung zu einer Veranstaltung</p>",
  subject: "Ihre Anmeldung zu {{congressTitle}}",
  content:
    '<p>Hallo {{firstname}},</p><p>Sie sind angemeldet. <a href="https://example.com">Zum Programm</a></p>',
  congressId: null,
  congress: null,
  createdAt: CREATED,
  updatedAt: CREATED,
});

export const twoFactorOn = (): Admin["twoFactor"]["getStatus"] => ({
  enabled: true,
  enabledAt: CREATED,
  recoveryCodesLeft: 10,
});

type CongressView = Row<RouterOutputs["congress"]["getOverview"]["congresses"]>;

/** An event of the overview that has not started, the visitor taking part (free: it can be cancelled). */
export const takingPart = (): CongressView => ({
  ...EVENT,
  ticketed: false,
  inProgress: false,
  inFuture: true,
  inPast: false,
  participationId: 5,
  currentUserParticipating: true,
  ticketBought: false,
});

export const overview = (congresses: CongressView[]): RouterOutputs["congress"]["getOverview"] => ({
  user: { firstname: "Erika", lastname: "Mustermann" },
  congresses,
  packages: [],
  attended: [],
});

export const profile = (): RouterOutputs["account"]["getProfile"] => ({
  id: 1,
  email: "erika.mustermann@example.com",
  firstname: "Erika",
  lastname: "Mustermann",
  roles: ["ROLE_USER"],
  newsletter: false,
  efn: null,
});
