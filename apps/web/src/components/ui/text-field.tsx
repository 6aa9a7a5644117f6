import type { ComponentProps } from "react";
import type { FieldValues, Path, UseFormRegister } from "react-hook-form";
import { FormField } from "./form-field";
import { Input } from "./input";
import { Select, type SelectOption } from "./select";
import { Textarea } from "./textarea";

/** The parts of a react-hook-form form (as `useSchemaForm` returns it) a field needs. */
export interface FieldForm<V extends FieldValues> {
  register: UseFormRegister<V>;
  errorOf: (name: Path<V>) => string | undefined;
}

export interface FieldProps<V extends FieldValues> {
  form: FieldForm<V>;
  name: Path<V>;
  label: string;
  hint?: string;
  /** a warning about the value that does not refuse it (FormField) */
  warning?: string | undefined;
}

// A form's fields register in render order, and a refused submit focuses the first registered field with a
// message: a form built of these components registers its fields in the order they are shown.

/** A labelled text input (or, `multiline`, a text area) of a form, with its hint and its message. */
export function TextField<V extends FieldValues>({
  form,
  name,
  label,
  hint,
  warning,
  multiline = false,
  className,
  ...input
}: Omit<ComponentProps<"input">, "name" | "form"> & FieldProps<V> & { multiline?: boolean }) {
  return (
    <FormField label={label} hint={hint} warning={warning} error={form.errorOf(name)} className={className}>
      {multiline ? <Textarea {...form.register(name)} /> : <Input {...input} {...form.register(name)} />}
    </FormField>
  );
}

/**
 * A day typed as TT.MM.JJJJ (the shared schemas read it as JJJJ-MM-TT): every admin form's date field, so
 * the event's days and a package's date are typed the same way.
 */
export function DateField<V extends FieldValues>({ form, name, label }: Omit<FieldProps<V>, "hint">) {
  return (
    <TextField
      form={form}
      name={name}
      label={label}
      hint="TT.MM.JJJJ"
      inputMode="numeric"
      placeholder="TT.MM.JJJJ"
    />
  );
}

/** A labelled choice of a form ("Bitte wählen …" first). */
export function SelectField<V extends FieldValues>({
  form,
  name,
  label,
  hint,
  options,
}: FieldProps<V> & { options: SelectOption[] }) {
  return (
    <FormField label={label} hint={hint} error={form.errorOf(name)}>
      <Select {...form.register(name)} options={options} />
    </FormField>
  );
}
