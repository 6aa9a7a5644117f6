import { MSG } from "@app/shared";
import { TRPCClientError } from "@trpc/client";
import { type BaseSyntheticEvent, useRef } from "react";
import {
  type DefaultValues,
  type FieldErrors,
  type FieldValues,
  get,
  type Path,
  type Resolver,
  set,
  useForm,
} from "react-hook-form";
import type { z } from "zod";
import { alerts, showError } from "@/lib/alerts";

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
 * The server's first message for each field of a refused input that the form shows: on a field named in
 * `fieldOf` or on a plain field of the same name (one about a list or group the form shows by its parts has
 * no field). `complete` when every message found a field (else the error dialog shows the refusal too).
 */
export function serverMessages(
  error: unknown,
  defaultValues: Record<string, unknown>,
  fieldOf: Partial<Record<string, string>> = {},
): { shown: Array<readonly [string, string]>; complete: boolean } {
  const fieldFor = (key: string): string | undefined => {
    const mapped = fieldOf[key];
    if (mapped) {
      return mapped;
    }
    const value: unknown = Object.hasOwn(defaultValues, key) ? defaultValues[key] : undefined;
    return value === undefined || (typeof value === "object" && value !== null) ? undefined : key;
  };
  const entries = Object.entries(serverFieldErrors(error));
  const shown = entries.flatMap(([key, messages]) => {
    const name = fieldFor(key);
    return name && messages[0] ? [[name, messages[0]] as const] : [];
  });
  return { shown, complete: shown.length > 0 && shown.length === entries.length };
}

/**
 * `run` once at a time: a call while the last one still runs (a double-click, Enter held down) does
 * nothing, so a form never sends twice.
 */
export function oneAtATime<A extends unknown[]>(
  busy: { current: boolean },
  run: (...args: A) => Promise<void>,
): (...args: A) => Promise<void> {
  return async (...args) => {
    if (busy.current) {
      return;
    }
    busy.current = true;
    try {
      await run(...args);
    } finally {
      busy.current = false;
    }
  };
}

export interface SchemaFormOptions<V extends FieldValues, S extends z.ZodType> {
  /** the packages/shared schema the procedure takes as input, or a loader of it */
  schema: SchemaSource<S>;
  defaultValues: V;
  /** the schema's input made of the form's values, where the two differ (e.g. a date typed as text) */
  toInput?: (values: V) => unknown;
  /** the form field an input key's messages belong under, where the names differ */
  fieldOf?: Partial<Record<string, Path<V>>>;
}

/**
 * The field a message about `path` of the schema's input goes under: one named in `fieldOf` shows every
 * message about its input key; otherwise the deepest part of the path the form's values hold (a message
 * about `extraParameters.crosssellLink` lands on the list `extraParameters`, one about
 * `data.days.0.name` on that day's name). A path the values do not hold at all (a value the form adds in
 * `toInput`) is kept as it is: the form shows no field of it, so the error dialog says it.
 */
function fieldName(
  fieldOf: Record<string, string | undefined>,
  path: readonly PropertyKey[],
  values: unknown,
): string {
  const mapped = fieldOf[String(path[0])];
  if (mapped) {
    return mapped;
  }
  const held: string[] = [];
  let at = values;
  for (const key of path) {
    if (at === null || typeof at !== "object" || !Object.hasOwn(at, key)) {
      break;
    }
    held.push(String(key));
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return (held.length > 0 ? held : path.map(String)).join(".");
}

/**
 * A react-hook-form resolver over a shared zod schema: the form's values become the schema's input, each
 * issue lands on the field it concerns (its first message), and the submit handler gets the parsed input.
 */
export function schemaResolver<V extends FieldValues, S extends z.ZodType>({
  schema,
  toInput = (values) => values,
  fieldOf = {},
}: Omit<SchemaFormOptions<V, S>, "defaultValues">): Resolver<V, unknown, z.output<S>> {
  return async (values) => {
    const loaded = typeof schema === "function" ? await schema() : schema;
    const result = loaded.safeParse(toInput(values));
    if (result.success) {
      return { values: result.data, errors: {} };
    }
    const errors: FieldErrors<V> = {};
    for (const issue of result.error.issues) {
      const name = fieldName(fieldOf, issue.path, values);
      if (!get(errors, name)) {
        set(errors, name, { type: issue.code, message: issue.message });
      }
    }
    return { values: {}, errors };
  };
}

/**
 * The one form hook of the web app (every form, the login page's too): react-hook-form validated on submit
 * with the same packages/shared schema the server uses. `submit(run)` calls `run` with the parsed input;
 * when the server refuses it, its messages land under the fields they concern (announced, and the first
 * such field gets the focus), and anything no field shows opens the error dialog. `submitting` is true from
 * the click (the schema may load first) to the end of `run`; a second submit meanwhile sends nothing.
 */
export function useSchemaForm<V extends FieldValues, S extends z.ZodType>(options: SchemaFormOptions<V, S>) {
  const { defaultValues, fieldOf = {} } = options;
  const form = useForm<V, unknown, z.output<S>>({
    defaultValues: defaultValues as DefaultValues<V>,
    resolver: schemaResolver(options),
    mode: "onSubmit",
  });

  const showServerErrors = (error: unknown): boolean => {
    const { shown, complete } = serverMessages(error, defaultValues, fieldOf);
    shown.forEach(([name, message], index) => {
      form.setError(name as Path<V>, { type: "server", message }, { shouldFocus: index === 0 });
    });
    return complete;
  };

  // a refusal about a value the form holds but does not show (e.g. a template's name) would block the
  // submit without a word: it goes to the error dialog
  const showHiddenErrors = async (errors: FieldErrors<V>) => {
    const shownFields = new Set<string>([
      ...Object.keys(defaultValues),
      ...Object.values(fieldOf).map(String),
    ]);
    const hidden = Object.entries(errors).filter(([key]) => !shownFields.has(key));
    if (hidden.length > 0) {
      const messages = hidden.map(([, error]) => (error as { message?: string } | undefined)?.message);
      await alerts.error({ title: MSG.validationTitle, detail: messages.filter(Boolean).join(" ") });
    }
  };

  const busy = useRef(false);
  const submit = (run: (input: z.output<S>) => Promise<void>) => {
    const handle = form.handleSubmit(
      async (input) => {
        try {
          await run(input);
        } catch (error) {
          if (!showServerErrors(error)) {
            await showError(error);
          }
        }
      },
      (errors) => showHiddenErrors(errors),
    );
    const once = oneAtATime(busy, (event?: BaseSyntheticEvent) => handle(event));
    return (event?: BaseSyntheticEvent) => {
      // the browser's own submit is stopped at once, also while a first one still runs
      event?.preventDefault();
      return once(event);
    };
  };

  /** the message of a field, for `<FormField error>` */
  const errorOf = (name: Path<V>): string | undefined => {
    const error: unknown = get(form.formState.errors, name);
    return (error as { message?: string } | undefined)?.message;
  };

  return { ...form, submit, errorOf, submitting: form.formState.isSubmitting };
}
