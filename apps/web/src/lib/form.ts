import { TRPCClientError } from "@trpc/client";
import { type FormEvent, useRef, useState } from "react";
import type { z } from "zod";
import { showError } from "@/lib/alerts";

/**
 * What every form shares, without react-hook-form: the schema loaders, the server's messages by field, and
 * the login page's own form state. The login route (login and registration side by side, the first page
 * of most visits) cannot carry react-hook-form within its weight budget (docs/decisions.md 75,
 * docs/performance.md "Login route"); every other form uses `useSchemaForm` (lib/schema-form.ts).
 */

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

/** The messages by field of a refused input (`data.fieldErrors` of the API's error formatter). */
export function serverFieldErrors(error: unknown): Record<string, string[]> {
  if (!(error instanceof TRPCClientError)) {
    return {};
  }
  const fieldErrors = (error.data as { fieldErrors?: unknown } | undefined)?.fieldErrors;
  return fieldErrors && typeof fieldErrors === "object" ? (fieldErrors as Record<string, string[]>) : {};
}

/**
 * The server's first message for each of `fields` it refused; `complete` when every message it sent found
 * one of them (else the error dialog shows the refusal too).
 */
export function fieldMessages(
  error: unknown,
  fields: readonly string[],
): { messages: Record<string, string>; complete: boolean } {
  const entries = Object.entries(serverFieldErrors(error));
  const messages: Record<string, string> = {};
  for (const [key, [message] = []] of entries) {
    if (fields.includes(key) && message) {
      messages[key] = message;
    }
  }
  const shown = Object.keys(messages).length;
  return { messages, complete: shown > 0 && shown === entries.length };
}

/**
 * The login page's forms (login, registration): the same contract as `useSchemaForm`, in plain state.
 * `submit(run)` validates with the shared schema and calls `run` with the parsed input; when the server
 * refuses it, its messages land under the fields they concern, anything no field shows opens the error
 * dialog. The values are what the form holds (e.g. an unticked checkbox the schema refuses).
 */
export function useLoginPageForm<S extends z.ZodType, V extends Record<string, unknown>>(
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

  /** the server's messages under the form's fields; false when one concerns something the form does not show */
  const showServerErrors = (error: unknown): boolean => {
    const { messages, complete } = fieldMessages(error, Object.keys(initial));
    setErrors(messages as FieldErrors<V>);
    return complete;
  };

  // from the click to the end of `run` (the schema loads first): a second click, e.g. a double-click,
  // sends nothing, and the button says so
  const busy = useRef(false);
  const [submitting, setSubmitting] = useState(false);

  const submit = (run: (input: z.output<S>) => Promise<void>) => async (event: FormEvent) => {
    event.preventDefault();
    if (busy.current) {
      return;
    }
    busy.current = true;
    setSubmitting(true);
    try {
      const input = await validate();
      if (input) {
        await run(input);
      }
    } catch (error) {
      if (!showServerErrors(error)) {
        await showError(error);
      }
    } finally {
      busy.current = false;
      setSubmitting(false);
    }
  };

  return { values, errors, set, submit, submitting };
}
