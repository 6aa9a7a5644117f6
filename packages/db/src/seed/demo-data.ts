import { addDays, formatGermanDate, type IsoDate } from "@app/shared";
import type { ContentData, ContentDay } from "../schema";

/** Demo logins printed by `pnpm dev` and listed in the README. Never seeded in production. */
export const DEMO_LOGINS = {
  admin: { email: "admin@example.com", password: "demo-admin-2026" },
  participant: { email: "teilnehmer@example.com", password: "demo-user-2026" },
} as const;

export const DEMO_USERS = [
  {
    key: "admin",
    email: DEMO_LOGINS.admin.email,
    password: DEMO_LOGINS.admin.password,
    firstname: "Anna",
    lastname: "Admin",
    roles: ["ROLE_USER", "ROLE_ADMIN"],
    active: true,
    newsletter: false,
  },
  {
    key: "participant",
    email: DEMO_LOGINS.participant.email,
    password: DEMO_LOGINS.participant.password,
    firstname: "Tom",
    lastname: "Teilnehmer",
    roles: ["ROLE_USER"],
    active: true,
    newsletter: true,
  },
  {
    key: "unconfirmed",
    email: "unbestaetigt@example.com",
    password: "demo-unconfirmed-2026",
    firstname: "Uta",
    lastname: "Unbestätigt",
    roles: ["ROLE_USER"],
    active: false,
    newsletter: false,
  },
  {
    // imported from the previous platform: no password until the set-password link is used
    key: "migrated",
    email: "migriert@example.com",
    password: null,
    firstname: "Max",
    lastname: "Migriert",
    roles: ["ROLE_USER"],
    active: true,
    newsletter: false,
    migrationHash: "demo-migration-hash-0f3c9a7e5b1d",
  },
] as const;

export type DemoUserKey = (typeof DEMO_USERS)[number]["key"];

const vimeo = (id: number) => `https://player.vimeo.com/video/${id}`;
const SAMPLE_VIDEO_IDS = [76979871, 22439234, 1084537, 148751763, 347119375, 253989945, 90509568, 59777392];

function day(name: string, count: number, exclusiveDate = ""): ContentDay {
  return {
    name,
    exclusive_date: exclusiveDate,
    videos: Array.from({ length: count }, (_, i) => ({
      url: vimeo(SAMPLE_VIDEO_IDS[i % SAMPLE_VIDEO_IDS.length] ?? 76979871),
      comment: `${name}: Vortrag ${i + 1}`,
    })),
  };
}

export interface DemoCongress {
  id: number;
  title: string;
  description: string;
  webinar: boolean;
  webinarUrl: string | null;
  webinarStartTime: string | null;
  visible: boolean;
  firstDay: IsoDate;
  lastDay: IsoDate | null;
  digistoreIdTicket: number;
  digistoreIdTicketAndPackage: number;
}

/** Events covering every case of the overview, relative to `today` (Berlin). */
export function demoCongresses(today: IsoDate): DemoCongress[] {
  const base = {
    webinar: false,
    webinarUrl: null,
    webinarStartTime: null,
    visible: true,
    digistoreIdTicket: 0,
    digistoreIdTicketAndPackage: 0,
  };
  return [
    {
      ...base,
      id: 1,
      title: "Paartherapie-Kongress 2023",
      description: "Die Aufzeichnungen des Paartherapie-Kongresses: drei Tage mit Vorträgen und Gesprächen.",
      firstDay: "2023-05-12",
      lastDay: "2023-05-14",
      visible: false,
    },
    {
      ...base,
      id: 2,
      title: "Kongress über Tod und Sterben 2023",
      description: "Aufzeichnungen des Kongresses über Tod, Sterben und Trauer.",
      firstDay: "2023-09-28",
      lastDay: null,
      visible: false,
    },
    {
      ...base,
      id: 3,
      title: "Live-Webinar: Achtsamkeit im Alltag",
      description:
        "Ein Abend mit praktischen Übungen zur Achtsamkeit, die sich leicht in den Alltag einbauen lassen. Mit anschließender Fragerunde.",
      webinar: true,
      webinarUrl: "https://example.com/webinar/achtsamkeit",
      webinarStartTime: "18:00",
      firstDay: today,
      lastDay: null,
    },
    {
      ...base,
      id: 4,
      title: "Online-Kongress Beziehung & Bindung",
      description:
        "Drei Tage mit Expertinnen und Experten aus Psychotherapie, Pädagogik und Forschung rund um Bindung, Beziehung und Familie. Alle Vorträge stehen während des Kongresses als Video bereit.",
      firstDay: addDays(today, -1),
      lastDay: addDays(today, 1),
      digistoreIdTicket: 500201,
      digistoreIdTicketAndPackage: 500202,
    },
    {
      ...base,
      id: 5,
      title: "Frühjahrskongress Resilienz",
      description:
        "Was Menschen stark macht: ein kostenfreier Online-Kongress über Resilienz in Krisenzeiten.",
      firstDay: addDays(today, 21),
      lastDay: addDays(today, 23),
    },
    {
      ...base,
      id: 6,
      title: "Kongress Trauer und Abschied",
      description:
        "Ein Kongress mit Ticket: Begleitung in der Trauer, Rituale des Abschieds und Selbstfürsorge.",
      firstDay: addDays(today, 40),
      lastDay: addDays(today, 42),
      digistoreIdTicket: 500101,
      digistoreIdTicketAndPackage: 500102,
    },
    {
      ...base,
      id: 7,
      title: "Webinar: Gewaltfreie Kommunikation",
      description:
        "Ein Webinar zur Gewaltfreien Kommunikation. Der Zugangslink wird rechtzeitig bekannt gegeben.",
      webinar: true,
      webinarStartTime: "19:30",
      firstDay: addDays(today, 10),
      lastDay: null,
    },
    {
      ...base,
      id: 8,
      title: "Eintägiger Fachtag Kinderschutz",
      description: "Ein kostenfreier Fachtag für pädagogische Fachkräfte.",
      firstDay: addDays(today, 14),
      lastDay: null,
    },
    {
      ...base,
      id: 9,
      title: "Herbstkongress Achtsamkeit",
      description: "Dieser Kongress ist bereits vorbei.",
      firstDay: addDays(today, -30),
      lastDay: addDays(today, -28),
    },
    {
      ...base,
      id: 10,
      title: "Entwurf: Sommerkongress",
      description: "Noch nicht veröffentlicht.",
      firstDay: addDays(today, 60),
      lastDay: addDays(today, 62),
      visible: false,
    },
  ];
}

export function demoContents(today: IsoDate): { id: number; congressId: number; data: ContentData }[] {
  return [
    { id: 1, congressId: 1, data: { days: [day("Tag 1", 8), day("Tag 2", 7), day("Tag 3", 8)] } },
    { id: 2, congressId: 2, data: { days: [day("Kongresstag", 6)] } },
    {
      id: 3,
      congressId: 4,
      data: {
        days: [
          day("Tag 1: Bindung", 3),
          day("Tag 2: Beziehung", 3, formatGermanDate(today)),
          day("Tag 3: Familie", 2, formatGermanDate(addDays(today, 1))),
        ],
      },
    },
  ];
}

export interface DemoPackage {
  id: number;
  name: string;
  description: string;
  congressId: number;
  externalId: number;
  availabilityDate: IsoDate | null;
  extraParameters: Record<string, string>;
}

/** Package ids 1 and 3 are the two password-gated packages (spec section 2). */
export function demoPackages(today: IsoDate): DemoPackage[] {
  return [
    {
      id: 1,
      name: "Kongresspaket Paartherapie",
      description: "Alle 23 Vorträge des Paartherapie-Kongresses als Aufzeichnung.",
      congressId: 1,
      externalId: 400001,
      availabilityDate: null,
      extraParameters: {},
    },
    {
      id: 2,
      name: "Kongresspaket Beziehung & Bindung",
      description: "Alle Vorträge des Online-Kongresses Beziehung & Bindung zum Nachschauen.",
      congressId: 4,
      externalId: 400002,
      availabilityDate: null,
      extraParameters: {
        crosssellDescription: "Passend dazu: das Kongresspaket Resilienz.",
        crosssellLink: "/congress-package-purchase/5",
      },
    },
    {
      id: 3,
      name: "Kongresspaket Tod und Sterben",
      description: "Die sechs Vorträge des Kongresses über Tod und Sterben.",
      congressId: 2,
      externalId: 400003,
      availabilityDate: null,
      extraParameters: {},
    },
    {
      id: 4,
      name: "Kongresspaket Achtsamkeit",
      description: "Die Aufzeichnungen des Herbstkongresses Achtsamkeit.",
      congressId: 9,
      externalId: 400004,
      availabilityDate: null,
      extraParameters: {},
    },
    {
      id: 5,
      name: "Kongresspaket Resilienz",
      description: "Die Aufzeichnungen des Frühjahrskongresses, verfügbar nach dem Kongress.",
      congressId: 5,
      externalId: 400005,
      availabilityDate: addDays(today, 30),
      extraParameters: { voucher: "FRUEHBUCHER" },
    },
  ];
}

/** What the demo participant owns, so the overview shows every case. */
export const DEMO_PARTICIPANT_STATE = {
  participations: [3, 4, 5, 6],
  ticketOrders: [
    { congressId: 4, externalId: "DEMO-TICKET-2", status: "paid" },
    { congressId: 6, externalId: "DEMO-TICKET-1", status: "paid" },
  ],
  packageOrders: [
    { congressPackageId: 2, externalId: "DEMO-PACKAGE-1", status: "paid" },
    { congressPackageId: 4, externalId: "DEMO-PACKAGE-2", status: "canceled" },
    { congressPackageId: 5, externalId: "DEMO-PACKAGE-3", status: "paid" },
  ],
} as const;
