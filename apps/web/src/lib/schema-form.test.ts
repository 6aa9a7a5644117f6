import { MSG, MSG_ADMIN, MSG_NAME, ZCongressInput, ZPackageInput, ZUserUpdateInput } from "@app/shared";
import { MSG_FIELD } from "@app/shared/field-text";
import { TRPCClientError } from "@trpc/client";
import { describe, expect, it } from "vitest";
import { authSchema, oneAtATime, schemaResolver, serverFieldErrors, serverMessages } from "./schema-form";

const congress = {
  title: "Sommerakademie",
  description: "Beschreibung",
  picture: null,
  webinar: false,
  webinarUrl: "",
  webinarStartTime: "",
  visible: true,
  firstCongressDay: "10.03.2027",
  lastCongressDay: "12.03.2027",
  digistoreIdTicket: "0",
  digistoreIdTicketAndPackage: "0",
};
const options = { fields: {}, shouldUseNativeValidation: false } as const;

// the form's values are the schema's input: the days as typed, the checkout ids as text
const resolve = schemaResolver({ schema: ZCongressInput });
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

  it("puts each message under the field it concerns", async () => {
    const result = await run({ ...congress, title: " ", lastCongressDay: "09.03.2027" });
    expect(result.errors).toEqual({
      title: { type: "too_small", message: MSG_ADMIN.titleRequired },
      lastCongressDay: { type: "custom", message: MSG_ADMIN.lastDayBeforeFirst },
    });
  });

  it("refuses a missing or unreadable day under its own field", async () => {
    expect((await run({ ...congress, firstCongressDay: "", lastCongressDay: "" })).errors).toEqual({
      firstCongressDay: { type: "custom", message: MSG_ADMIN.firstDayRequired },
    });
    expect((await run({ ...congress, lastCongressDay: "" })).errors).toEqual({
      lastCongressDay: { type: "custom", message: MSG_FIELD.date },
    });
    expect((await run({ ...congress, firstCongressDay: "31.02.2027" })).errors).toEqual({
      firstCongressDay: { type: "custom", message: MSG_FIELD.date },
    });
  });

  it("loads a lazily given schema when it validates", async () => {
    const lazy = schemaResolver({ schema: async () => ZCongressInput });
    const result = await lazy({ ...congress, title: "" }, undefined, {
      fields: {},
      shouldUseNativeValidation: false,
    });
    expect(result.errors).toHaveProperty("title.message", MSG_ADMIN.titleRequired);
  });
});

describe("the package form", () => {
  it("hands the schema the chosen event and the named extra parameters only", async () => {
    const resolvePackage = schemaResolver({ schema: ZPackageInput });
    const form = {
      name: "Paket",
      congress: "4",
      externalId: "777",
      description: "D",
      picture: null,
      availabilityDate: "",
      extraParameters: [
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

  it("puts a refused extra parameter under the list of pairs the form holds", async () => {
    const resolvePackage = schemaResolver({ schema: ZPackageInput });
    const result = await resolvePackage(
      {
        name: "Paket",
        congress: "4",
        externalId: "777",
        description: "D",
        availabilityDate: "",
        extraParameters: [{ key: "crosssellLink", value: "javascript:alert(1)" }],
      },
      undefined,
      options,
    );
    expect(result.errors).toEqual({
      extraParameters: { type: "custom", message: MSG_ADMIN.crosssellLinkInvalid },
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

const refusal = (fieldErrors: Record<string, string[]>) =>
  new TRPCClientError("refused", {
    result: { error: { code: -32600, message: "x", data: { fieldErrors } } },
  });

describe("serverMessages", () => {
  it("takes the first message of each field the form shows", () => {
    const error = refusal({ firstname: ["Zu lang.", "Noch etwas."], email: ["Ungültig."] });
    expect(serverMessages(error, { firstname: "", lastname: "", email: "" })).toEqual({
      shown: [
        ["firstname", "Zu lang."],
        ["email", "Ungültig."],
      ],
      complete: true,
    });
  });

  it("is incomplete when a message concerns a value the form does not show", () => {
    const error = refusal({ firstname: ["Zu lang."], congressId: ["Keine gültige Nummer."] });
    expect(serverMessages(error, { firstname: "" })).toEqual({
      shown: [["firstname", "Zu lang."]],
      complete: false,
    });
    expect(serverMessages(refusal({ congressId: ["x"] }), { firstname: "" }).complete).toBe(false);
  });

  it("finds nothing in a refusal without field errors or in another error", () => {
    expect(serverMessages(refusal({}), { email: "" })).toEqual({ shown: [], complete: false });
    expect(serverMessages(new Error("network"), { email: "" })).toEqual({ shown: [], complete: false });
  });

  it("puts a message on the field `fieldOf` names, and none on a list the form shows by its parts", () => {
    const error = refusal({ extraParameters: ["Ungültig."], users: ["Keine."] });
    expect(serverMessages(error, { extra: [], users: [] }, { extraParameters: "extra" })).toEqual({
      shown: [["extra", "Ungültig."]],
      complete: false,
    });
  });
});

describe("oneAtATime", () => {
  it("sends nothing while the last submit still runs, and the next one after it", async () => {
    const busy = { current: false };
    const sent: number[] = [];
    let finish = () => {};
    const submit = oneAtATime(busy, async (n: number) => {
      sent.push(n);
      await new Promise<void>((resolve) => {
        finish = resolve;
      });
    });
    const first = submit(1);
    await submit(2);
    expect(sent).toEqual([1]);
    finish();
    await first;
    const third = submit(3);
    finish();
    await third;
    expect(sent).toEqual([1, 3]);
    expect(busy.current).toBe(false);
  });

  it("is free again after a submit that failed", async () => {
    const busy = { current: false };
    await expect(oneAtATime(busy, async () => Promise.reject(new Error("x")))()).rejects.toThrow("x");
    expect(busy.current).toBe(false);
  });
});

describe("the login page's forms against the shared schemas", () => {
  it("refuses an empty sign-in under both fields and passes a filled one", async () => {
    const login = schemaResolver({ schema: authSchema("ZLoginInput") });
    const refused = await login({ email: "", password: "" }, undefined, options);
    expect(Object.keys(refused.errors)).toEqual(["email", "password"]);
    const ok = await login({ email: " a@example.com ", password: "x" }, undefined, options);
    expect(ok.errors).toEqual({});
  });

  it("refuses a registration without the privacy notice under its checkbox", async () => {
    const register = schemaResolver({ schema: authSchema("ZRegisterInput") });
    const values = {
      firstname: "Ada",
      lastname: "Lovelace",
      email: "ada@example.com",
      password: "geheim-123",
      dataProtection: false,
      newsletter: false,
    };
    const refused = await register(values, undefined, options);
    expect(Object.keys(refused.errors)).toEqual(["dataProtection"]);
    expect((await register({ ...values, dataProtection: true }, undefined, options)).errors).toEqual({});
  });
});

describe("the account forms' values against the shared schemas", () => {
  // the migration form holds the two passwords; account and hash come from the path (toInput)
  const migration = schemaResolver({
    schema: authSchema("ZMigrationSetPasswordInput"),
    toInput: (values: { password: string; passwordConfirm: string }) => ({
      ...values,
      userId: 7,
      hash: "abc",
    }),
  });

  it("gives the migration's submit the path's account and hash with the password", async () => {
    const result = await migration(
      { password: "migriert-1", passwordConfirm: "migriert-1" },
      undefined,
      options,
    );
    expect(result.errors).toEqual({});
    expect(result.values).toMatchObject({ userId: 7, hash: "abc", password: "migriert-1" });
  });

  it("puts the migration's mismatch under the confirmation, where the form looks for its dialog", async () => {
    const result = await migration(
      { password: "migriert-1", passwordConfirm: "anders-1" },
      undefined,
      options,
    );
    expect(result.errors).toEqual({
      passwordConfirm: { type: "custom", message: MSG.migrationPasswordsDoNotMatch },
    });
  });

  it("refuses an empty gated-page password under its field and keeps the path out of the form", async () => {
    const gated = schemaResolver({
      schema: () => import("@app/shared/gated-input").then((m) => m.ZGatedUnlockInput),
      toInput: (values: { password: string }) => ({ ...values, path: "/paartherapie" }),
    });
    expect((await gated({ password: "" }, undefined, options)).errors).toEqual({
      password: { type: "too_small", message: MSG.passwordRequired },
    });
    expect((await gated({ password: "Geheim" }, undefined, options)).values).toEqual({
      path: "/paartherapie",
      password: "Geheim",
    });
  });
});

describe("the name fields", () => {
  it("show the name rule's message under the field, in the registration and in the admin's user dialog", async () => {
    const registration = schemaResolver({ schema: authSchema("ZRegisterInput") });
    const person = {
      firstname: "Erika 🎓",
      lastname: "Muster",
      email: "erika@example.com",
      password: "sicheres-Passwort-1",
      dataProtection: true,
      newsletter: false,
    };
    expect((await registration(person, undefined, options)).errors).toEqual({
      firstname: { type: "custom", message: MSG_NAME.invalid },
    });
    const dialog = schemaResolver({ schema: ZUserUpdateInput });
    const user = {
      id: 3,
      firstname: "Erika",
      lastname: "Er\u202Eika",
      email: "e@example.com",
      active: true,
      admin: false,
    };
    expect((await dialog(user, undefined, options)).errors).toEqual({
      lastname: { type: "custom", message: MSG_NAME.invalid },
    });
  });
});
