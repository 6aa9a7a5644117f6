import { useState } from "react";
import type { z } from "zod";

export type FieldErrors<V> = Partial<Record<keyof V & string, string>>;

/** A schema, or a loader of one: forms on the first page load their schema (and zod) only when submitted. */
export type SchemaSource<S> = S | (() => Promise<S>);

type AuthSchemas = typeof import("@app/shared/auth");

/**
 * A loader of one of the account schemas. The account forms are the first page of most visits; loading
 * their schemas (and with them zod, about 40 KB) on submit keeps that page small.
 */
export const authSchema =
  <K extends keyof AuthSchemas>(name: K) =>
  (): Promise<AuthSchemas[K]> =>
    import("@app/shared/auth").then((m) => m[name]);

/**
 * Form state validated with the same zod schema the server uses; errors are keyed by field and shown
 * next to it. The values are what the form holds (e.g. an unticked checkbox the schema refuses);
 * `validate` resolves to the parsed input, or to null after setting the errors.
 */
export function useZodForm<S extends z.ZodType, V extends Record<string, unknown>>(
  source: SchemaSource<S>,
  initial: V,
) {
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<FieldErrors<V>>({});

  const set = <K extends keyof V>(key: K, value: V[K]) => {
    setValues((prev) => ({ ...prev, [key]: value }));
    setErrors((prev) => ({ ...prev, [key]: undefined }));
  };

  const validate = async (): Promise<z.output<S> | null> => {
    const schema = typeof source === "function" ? await source() : source;
    const result = schema.safeParse(values);
    if (result.success) {
      setErrors({});
      return result.data;
    }
    const next: Record<string, string> = {};
    for (const issue of result.error.issues) {
      const key = String(issue.path[0] ?? "");
      next[key] ??= issue.message;
    }
    setErrors(next as FieldErrors<V>);
    return null;
  };

  return { values, errors, set, setErrors, validate };
}
