import { MSG } from "@app/shared";
import { TRPCClientError } from "@trpc/client";
import { describe, expect, it } from "vitest";
import { authSchema, fieldMessages } from "./form";
import { schemaResolver } from "./schema-form";

const refusal = (fieldErrors: Record<string, string[]>) =>
  new TRPCClientError("refused", {
    result: { error: { code: -32600, message: "x", data: { fieldErrors } } },
  });

describe("fieldMessages", () => {
  it("takes the first message of each field the form shows", () => {
    const error = refusal({ firstname: ["Zu lang.", "Noch etwas."], email: ["Ungültig."] });
    expect(fieldMessages(error, ["firstname", "lastname", "email"])).toEqual({
      messages: { firstname: "Zu lang.", email: "Ungültig." },
      complete: true,
    });
  });

  it("is incomplete when a message concerns a value the form does not show", () => {
    const error = refusal({ firstname: ["Zu lang."], congressId: ["Keine gültige Nummer."] });
    expect(fieldMessages(error, ["firstname"])).toEqual({
      messages: { firstname: "Zu lang." },
      complete: false,
    });
    expect(fieldMessages(refusal({ congressId: ["x"] }), ["firstname"]).complete).toBe(false);
  });

  it("finds nothing in a refusal without field errors or in another error", () => {
    expect(fieldMessages(refusal({}), ["email"])).toEqual({ messages: {}, complete: false });
    expect(fieldMessages(new Error("network"), ["email"])).toEqual({ messages: {}, complete: false });
  });
});

const options = { fields: {}, shouldUseNativeValidation: false } as const;

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
