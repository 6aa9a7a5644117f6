import { useState } from "react";
import type { z } from "zod";

export type FieldErrors<V> = Partial<Record<keyof V & string, string>>;

/**
 * Form state validated with the same zod schema the server uses; errors are keyed by field and shown
 * next to it. The values are what the form holds (e.g. an unticked checkbox the schema refuses);
 * `validate` returns the parsed input or null after setting the errors.
 */
export function useZodForm<S extends z.ZodType, V extends Record<string, unknown>>(schema: S, initial: V) {
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<FieldErrors<V>>({});

  const set = <K extends keyof V>(key: K, value: V[K]) => {
    setValues((prev) => ({ ...prev, [key]: value }));
    setErrors((prev) => ({ ...prev, [key]: undefined }));
  };

  const validate = (): z.output<S> | null => {
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
