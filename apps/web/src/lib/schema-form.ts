import { MSG } from "@app/shared";
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
import { type SchemaSource, serverFieldErrors } from "@/lib/form";

export { authSchema, serverFieldErrors } from "@/lib/form";

export interface SchemaFormOptions<V extends FieldValues, S extends z.ZodType> {
  /** the packages/shared schema the procedure takes as input, or a loader of it */
  schema: SchemaSource<S>;
  defaultValues: V;
  /** the schema's input made of the form's values, where the two differ (e.g. a date typed as text) */
  toInput?: (values: V) => unknown;
  /** the form field an input key's messages belong under, where the names differ */
  fieldOf?: Partial<Record<string, Path<V>>>;
}

/** a field named in `fieldOf` shows every message about its input key, nested ones too */
const fieldName = (fieldOf: Record<string, string | undefined>, path: readonly PropertyKey[]) =>
  fieldOf[String(path[0])] ?? path.map(String).join(".");

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
      const name = fieldName(fieldOf, issue.path);
      if (!get(errors, name)) {
        set(errors, name, { type: issue.code, message: issue.message });
      }
    }
    return { values: {}, errors };
  };
}

/**
 * The one form helper: react-hook-form validated on submit with the same packages/shared schema the server
 * uses. `submit(run)` calls `run` with the parsed input; when the server refuses it, its messages land under
 * the fields they concern (and the first such field gets the focus), and anything no field shows opens the
 * error dialog.
 */
export function useSchemaForm<V extends FieldValues, S extends z.ZodType>(options: SchemaFormOptions<V, S>) {
  const { defaultValues, fieldOf = {} } = options;
  const form = useForm<V, unknown, z.output<S>>({
    defaultValues: defaultValues as DefaultValues<V>,
    resolver: schemaResolver(options),
    mode: "onSubmit",
  });

  // a message lands on a field named in `fieldOf` or on a plain field of the same name; one about a list or
  // group the form shows by its parts goes to the error dialog instead of vanishing
  const serverField = (key: string): Path<V> | undefined => {
    const mapped = fieldOf[key];
    if (mapped) {
      return mapped;
    }
    const value: unknown = Object.hasOwn(defaultValues, key) ? defaultValues[key] : undefined;
    return value === undefined || (typeof value === "object" && value !== null)
      ? undefined
      : (key as Path<V>);
  };

  const showServerErrors = (error: unknown): boolean => {
    const entries = Object.entries(serverFieldErrors(error));
    const shown = entries.flatMap(([key, messages]) => {
      const name = serverField(key);
      return name && messages[0] ? [[name, messages[0]] as const] : [];
    });
    shown.forEach(([name, message], index) => {
      form.setError(name, { type: "server", message }, { shouldFocus: index === 0 });
    });
    return shown.length > 0 && shown.length === entries.length;
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

  const submit = (run: (input: z.output<S>) => Promise<void>) =>
    form.handleSubmit(
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

  /** the message of a field, for `<FormField error>` */
  const errorOf = (name: Path<V>): string | undefined => {
    const error: unknown = get(form.formState.errors, name);
    return (error as { message?: string } | undefined)?.message;
  };

  return { ...form, submit, errorOf };
}
