import {
  MSG_ADMIN,
  MSG_TEMPLATES,
  ZAdminPackageOrderInput,
  ZAdminTicketOrderInput,
  ZCongressInput,
  ZContentInput,
  ZLearningCheckInput,
  ZMailTemplateInput,
  ZPackageInput,
  ZUserUpdateInput,
} from "@app/shared";
import { describe, expect, it } from "vitest";
import { schemaResolver } from "@/lib/schema-form";
import {
  type AdminPackage,
  congressDays,
  congressToForm,
  contentToForm,
  emptyCongressForm,
  emptyLearningCheckForm,
  emptyOrderForm,
  emptyPackageForm,
  learningCheckToForm,
  newContentForm,
  newDay,
  orderFieldOf,
  ordersCreatedText,
  packageToForm,
  type StoredCongress,
  templateToForm,
  toOrderInput,
  toTemplateInput,
  type UserDetails,
  userToForm,
} from "./admin-forms";

// What each admin editor's form holds and what its procedure takes: the record the list answers goes into
// the form, the form's values are the shared schema's input, as the browser's submit sends them.

const congress: StoredCongress = {
  id: 7,
  title: "Herbstkongress",
  description: "Beschreibung",
  picture: "bild.png",
  webinar: true,
  webinarUrl: null,
  webinarStartTime: "18:30",
  visible: true,
  firstDay: "2031-03-10",
  lastDay: null,
  digistoreIdTicket: 0,
  digistoreIdTicketAndPackage: 4711,
  extraParameters: { campaign: "herbst" },
  fortbildung: true,
  vnr: "2760602025123450001",
  fortbildungCategory: null,
  pointsPerDay: null,
  requiredPercent: 80,
  presenceChecksPerDay: 3,
  presenceChecksRequired: 2,
  webinarMinutes: 90,
  createdAt: new Date("2030-01-01T00:00:00Z"),
  updatedAt: new Date("2030-01-01T00:00:00Z"),
};

const pkg: Omit<AdminPackage, "congress"> = {
  id: 3,
  name: "Paket",
  congressId: 7,
  externalId: 777,
  description: "Aufzeichnungen",
  picture: null,
  availabilityDate: "2031-04-01",
  extraParameters: { voucher: "TEST10", crosssellLink: "https://example.com" },
  createdAt: new Date("2030-01-01T00:00:00Z"),
  updatedAt: new Date("2030-01-01T00:00:00Z"),
};

const resolverOptions = { fields: {}, shouldUseNativeValidation: false };

describe("the event form", () => {
  it("shows the stored days as TT.MM.JJJJ (a one-day event twice), ids and empty links as text", () => {
    expect(congressToForm(congress)).toEqual({
      id: 7,
      title: "Herbstkongress",
      description: "Beschreibung",
      picture: "bild.png",
      webinar: true,
      webinarUrl: "",
      webinarStartTime: "18:30",
      visible: true,
      firstCongressDay: "10.03.2031",
      lastCongressDay: "10.03.2031",
      digistoreIdTicket: "0",
      digistoreIdTicketAndPackage: "4711",
      extraParameters: { campaign: "herbst" },
      fortbildung: true,
      vnr: "2760602025123450001",
      fortbildungCategory: "",
      pointsPerDay: "",
      requiredPercent: "80",
      presenceChecksPerDay: "3",
      presenceChecksRequired: "2",
      webinarMinutes: "90",
    });
  });

  it("saves an unchanged event as it is stored: ISO days, numbers, null for empty texts, its extra parameters", () => {
    const input = ZCongressInput.parse(congressToForm(congress));
    // every stored field the schema takes comes back as it is stored (webinarUrl stays null); the days as `{date}`
    const { firstDay: _f, lastDay: _l, createdAt: _c, updatedAt: _u, ...stored } = congress;
    expect(input).toEqual({
      ...stored,
      firstCongressDay: { date: "2031-03-10" },
      lastCongressDay: { date: "2031-03-10" },
    });
  });

  it("takes an empty checkout id as 0 and a new event with no extra parameters", () => {
    const form = {
      ...emptyCongressForm,
      title: "T",
      description: "D",
      firstCongressDay: "01.02.2031",
      lastCongressDay: "02.02.2031",
    };
    const input = ZCongressInput.parse({ ...form, digistoreIdTicket: "" });
    expect(input.id).toBeUndefined();
    expect(input).toMatchObject({
      digistoreIdTicket: 0,
      extraParameters: {},
      webinarStartTime: null,
    });
  });

  it("refuses an unreadable day, a missing last day and a bad start time under the fields the admin typed in", async () => {
    const resolve = schemaResolver({ schema: ZCongressInput });
    const form = congressToForm(congress);
    const result = await resolve(
      { ...form, firstCongressDay: "31.02.2031", lastCongressDay: "", webinarStartTime: "25:00" },
      undefined,
      resolverOptions,
    );
    expect(Object.keys(result.errors).sort()).toEqual([
      "firstCongressDay",
      "lastCongressDay",
      "webinarStartTime",
    ]);
    expect(result.errors.webinarStartTime?.message).toBe(MSG_ADMIN.startTimeInvalid);
  });
});

describe("the package form", () => {
  it("holds the event and the checkout id as text and the extra parameters as pairs, and saves them back", () => {
    const form = packageToForm(pkg);
    expect(form).toMatchObject({
      congress: "7",
      externalId: "777",
      // typed as in the event form's date fields
      availabilityDate: "01.04.2031",
      extraParameters: [
        { key: "voucher", value: "TEST10" },
        { key: "crosssellLink", value: "https://example.com" },
      ],
    });
    expect(ZPackageInput.parse(form)).toEqual({
      id: 3,
      name: "Paket",
      congress: 7,
      externalId: 777,
      description: "Aufzeichnungen",
      picture: null,
      availabilityDate: "2031-04-01",
      extraParameters: { voucher: "TEST10", crosssellLink: "https://example.com" },
    });
  });

  it("sends no date as null and refuses a missing event and checkout id under their fields", async () => {
    const resolve = schemaResolver({ schema: ZPackageInput });
    const result = await resolve(
      { ...emptyPackageForm, name: "P", description: "D" },
      undefined,
      resolverOptions,
    );
    expect(result.errors).toMatchObject({
      congress: { message: MSG_ADMIN.congressRequired },
      externalId: { message: MSG_ADMIN.externalIdRequired },
    });
    expect(
      ZPackageInput.parse({
        ...emptyPackageForm,
        name: "P",
        description: "D",
        congress: "7",
        externalId: "1",
      }).availabilityDate,
    ).toBeNull();
  });
});

describe("the content form", () => {
  it("is the schema's input: stored days without date or comment show empty fields and save as empty texts", () => {
    const form = contentToForm({
      id: 2,
      congress: { id: 7, title: "Herbstkongress" },
      type: "vimeo",
      data: {
        days: [
          {
            name: "Tag 1",
            exclusive_date: null,
            videos: [{ url: "https://player.vimeo.com/video/1", comment: null }],
          },
          { name: "Tag 2", exclusive_date: "11.03.2031" },
        ],
      },
    } as unknown as Parameters<typeof contentToForm>[0]); // migrated records may lack a date, comment or videos
    expect(form).toEqual({
      id: 2,
      congress: "7",
      type: "vimeo",
      data: {
        days: [
          {
            name: "Tag 1",
            exclusive_date: "",
            videos: [{ url: "https://player.vimeo.com/video/1", comment: "", duration: "", live: false }],
          },
          { name: "Tag 2", exclusive_date: "11.03.2031", videos: [] },
        ],
      },
    });
    expect(ZContentInput.parse(form)).toMatchObject({
      congress: 7,
      data: {
        days: [
          {
            name: "Tag 1",
            exclusive_date: "",
            videos: [{ url: "https://player.vimeo.com/video/1", comment: "" }],
          },
          { name: "Tag 2", exclusive_date: "11.03.2031", videos: [] },
        ],
      },
    });
  });

  it("shows a stored length as m:ss or h:mm:ss and saves it back as the same seconds", () => {
    const form = contentToForm({
      id: 3,
      congress: { id: 7, title: "Herbstkongress" },
      type: "vimeo-url",
      data: {
        days: [
          {
            name: "Tag 1",
            exclusive_date: "",
            videos: [
              { url: "https://player.vimeo.com/video/1", comment: "", duration: 3723 },
              { url: "https://player.vimeo.com/video/2", comment: "", duration: 754 },
            ],
          },
        ],
      },
    });
    expect(form.data.days[0]?.videos.map((v) => v.duration)).toEqual(["1:02:03", "12:34"]);
    const saved = ZContentInput.parse(form).data.days[0]?.videos;
    expect(saved?.map((v) => v.duration)).toEqual([3723, 754]);
    expect(newDay(2).videos).toEqual([{ url: "", comment: "", duration: "", live: false }]);
  });

  it("shows the organiser's live flag as a ticked box and saves it back only where it is ticked", () => {
    const form = contentToForm({
      id: 4,
      congress: { id: 7, title: "Herbstkongress" },
      type: "vimeo-url",
      data: {
        days: [
          {
            name: "Tag 1",
            exclusive_date: "",
            videos: [
              { url: "https://player.vimeo.com/video/1", comment: "", duration: 2700, live: true },
              { url: "https://player.vimeo.com/video/2", comment: "" },
            ],
          },
        ],
      },
    });
    const videos = form.data.days[0]?.videos;
    expect(videos?.map((v) => v.live)).toEqual([true, false]);
    expect(JSON.parse(JSON.stringify(ZContentInput.parse(form).data.days[0]?.videos))).toEqual([
      { url: "https://player.vimeo.com/video/1", comment: "", duration: 2700, live: true },
      { url: "https://player.vimeo.com/video/2", comment: "" },
    ]);
  });

  it("starts a new content with one named day and one empty video, refused until an event and address are given", () => {
    const result = ZContentInput.safeParse(newContentForm());
    expect(result.success).toBe(false);
    const paths = result.error?.issues.map((issue) => issue.path.join(".")).sort();
    expect(paths).toEqual(["congress", "data.days.0.videos.0.url"]);
  });
});

describe("the user form", () => {
  it("holds the editable fields of the loaded user; participations and attendance are only shown", () => {
    const editable = {
      id: 5,
      firstname: "Erika",
      lastname: "Muster",
      email: "erika@example.com",
      active: true,
      admin: false,
    };
    const user = {
      ...editable,
      participations: [{ id: 1, congressTitle: "Herbstkongress", createdAt: new Date() }],
      attendance: [],
    } as unknown as UserDetails;
    const form = userToForm(user);
    expect(form).toEqual(editable);
    expect(ZUserUpdateInput.parse(form)).toEqual(form);
  });
});

describe("the mail template form", () => {
  const template = {
    id: 9,
    name: "participation-confirmation",
    congress: { id: 7, title: "Herbstkongress" },
    description: "<p>intern</p>",
  };

  it("edits subject and content and sends the template's name, event and description along", () => {
    const values = { ...templateToForm({ subject: "Betreff", content: "<p>Hallo</p>" }), subject: "Neu" };
    expect(ZMailTemplateInput.parse(toTemplateInput(template)(values))).toEqual({
      id: 9,
      name: "participation-confirmation",
      congress: 7,
      subject: "Neu",
      content: "<p>Hallo</p>",
      description: "<p>intern</p>",
    });
    expect(toTemplateInput({ ...template, congress: null })(values).congress).toBeNull();
  });

  it("refuses an empty subject under the subject", async () => {
    const resolve = schemaResolver({ schema: ZMailTemplateInput, toInput: toTemplateInput(template) });
    const result = await resolve({ subject: " ", content: "" }, undefined, resolverOptions);
    expect(result.errors).toEqual({ subject: { type: "too_small", message: MSG_TEMPLATES.subjectRequired } });
  });
});

describe("the order form", () => {
  const users = [
    { id: 4, label: "A <a@example.com>" },
    { id: 6, label: "B <b@example.com>" },
  ];

  it("sends the chosen people and the package or the event, read by their ids", () => {
    expect(ZAdminPackageOrderInput.parse(toOrderInput("package")({ users, product: "3" }))).toEqual({
      users: [4, 6],
      congressPackage: 3,
    });
    expect(ZAdminTicketOrderInput.parse(toOrderInput("ticket")({ users, product: "7" }))).toEqual({
      users: [4, 6],
      congress: 7,
    });
  });

  it("says how many orders were made, in the singular for one", () => {
    expect(ordersCreatedText(1)).toBe("1 Bestellung angelegt; die Person erhält eine E-Mail.");
    expect(ordersCreatedText(2)).toBe("2 Bestellungen angelegt; jede Person erhält eine E-Mail.");
  });

  it("refuses no choice under the product field, for either kind", async () => {
    for (const [kind, schema] of [
      ["package", ZAdminPackageOrderInput],
      ["ticket", ZAdminTicketOrderInput],
    ] as const) {
      const resolve = schemaResolver({ schema, toInput: toOrderInput(kind), fieldOf: orderFieldOf });
      const result = await resolve({ ...emptyOrderForm(), users }, undefined, resolverOptions);
      expect(Object.keys(result.errors)).toEqual(["product"]);
    }
  });
});

describe("learning-check form", () => {
  it("lists an event's calendar days and turns a stored check into the schema's input", () => {
    expect(congressDays("2026-10-30", "2026-11-01")).toEqual(["2026-10-30", "2026-10-31", "2026-11-01"]);
    expect(congressDays("2026-10-30", null)).toEqual(["2026-10-30"]);
    const answers = [
      { text: "A", correct: true },
      { text: "B", correct: false },
      { text: "C", correct: true },
    ];
    const form = learningCheckToForm({
      id: 4,
      packageId: 9,
      day: null,
      passPercent: 70,
      vnr: "2760602026000123456",
      category: null,
      points: null,
      questions: [{ id: 11, question: "Frage?", answers, explanation: "" }],
    });
    expect(ZLearningCheckInput.parse(form)).toEqual({
      id: 4,
      packageId: 9,
      day: null,
      passPercent: 70,
      vnr: "2760602026000123456",
      category: null,
      points: null,
      questions: [{ id: 11, question: "Frage?", answers, explanation: "" }],
    });
    // a new check starts with the default pass mark and one question of three empty answers
    expect(emptyLearningCheckForm()).toMatchObject({
      passPercent: "70",
      questions: [{ answers: [{}, {}, {}] }],
    });
  });
});
