import { MSG_ADMIN, ZCongressInput, ZPackageInput } from "@app/shared";
import { TRPCClientError } from "@trpc/client";
import { describe, expect, it } from "vitest";
import { toCongressInput, toPackageInput } from "@/routes/_admin/-components/admin-forms";
import { schemaResolver, serverFieldErrors } from "./schema-form";

const congress = {
  title: "Sommerakademie",
  description: "Beschreibung",
  picture: null,
  webinar: false,
  webinarUrl: "",
  webinarStartTime: "",
  visible: true,
  firstDay: "10.03.2027",
  lastDay: "12.03.2027",
  digistoreIdTicket: "0",
  digistoreIdTicketAndPackage: "0",
};
const resolve = schemaResolver({
  schema: ZCongressInput,
  toInput: toCongressInput,
  fieldOf: { firstCongressDay: "firstDay", lastCongressDay: "lastDay" },
});
const run = (values: typeof congress) =>
  resolve(values, undefined, { fields: {}, shouldUseNativeValidation: false });

describe("schemaResolver", () => {
  it("gives the submit handler the shared schema's parsed input", async () => {
    const result = await run(congress);
    expect(result.errors).toEqual({});
    expect(result.values).toMatchObject({
      title: "Sommerakademie",
      firstCongressDay: { date: "2027-03-10" },
      lastCongressDay: { date: "2027-03-12" },
    });
  });

  it("puts each message under the field it concerns, the schema's key mapped to the form's", async () => {
    const result = await run({ ...congress, title: " ", lastDay: "09.03.2027" });
    expect(result.errors).toEqual({
      title: { type: "too_small", message: MSG_ADMIN.titleRequired },
      lastDay: { type: "custom", message: MSG_ADMIN.lastDayBeforeFirst },
    });
  });

  it("refuses a missing or unreadable day under its own field", async () => {
    expect((await run({ ...congress, firstDay: "", lastDay: "" })).errors).toEqual({
      firstDay: { type: "custom", message: MSG_ADMIN.firstDayRequired },
    });
    expect((await run({ ...congress, lastDay: "" })).errors).toHaveProperty("lastDay.message");
    expect((await run({ ...congress, firstDay: "31.02.2027" })).errors).toHaveProperty("firstDay.message");
  });

  it("loads a lazily given schema when it validates", async () => {
    const lazy = schemaResolver({ schema: async () => ZCongressInput, toInput: toCongressInput });
    const result = await lazy({ ...congress, title: "" }, undefined, {
      fields: {},
      shouldUseNativeValidation: false,
    });
    expect(result.errors).toHaveProperty("title.message", MSG_ADMIN.titleRequired);
  });
});

describe("the package form", () => {
  it("hands the schema the chosen event and the named extra parameters only", async () => {
    const resolvePackage = schemaResolver({
      schema: ZPackageInput,
      toInput: toPackageInput,
      fieldOf: { extraParameters: "extra" },
    });
    const form = {
      name: "Paket",
      congress: "4",
      externalId: "777",
      description: "D",
      picture: null,
      availabilityDate: "",
      extra: [
        { key: " voucher ", value: "TEST10" },
        { key: "", value: "ohne Namen" },
      ],
    };
    const ok = await resolvePackage(form, undefined, { fields: {}, shouldUseNativeValidation: false });
    expect(ok.values).toMatchObject({
      congress: 4,
      externalId: 777,
      availabilityDate: null,
      extraParameters: { voucher: "TEST10" },
    });
    const refused = await resolvePackage({ ...form, congress: "", externalId: "0" }, undefined, {
      fields: {},
      shouldUseNativeValidation: false,
    });
    expect(refused.errors).toMatchObject({
      congress: { message: MSG_ADMIN.congressRequired },
      externalId: { message: MSG_ADMIN.externalIdRequired },
    });
  });
});

describe("serverFieldErrors", () => {
  it("reads the messages by field of a refused tRPC call and nothing from other errors", () => {
    const refused = new TRPCClientError("refused", {
      result: { error: { code: -32600, message: "x", data: { fieldErrors: { title: ["Titel fehlt."] } } } },
    });
    expect(serverFieldErrors(refused)).toEqual({ title: ["Titel fehlt."] });
    expect(serverFieldErrors(new Error("network"))).toEqual({});
  });
});
