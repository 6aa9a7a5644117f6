import type { ComponentProps } from "react";
import type { FieldValues, Path, UseFormRegister } from "react-hook-form";
import { FormField } from "./form-field";
import { Input } from "./input";

/** The parts of a react-hook-form form (as `useSchemaForm` returns it) a text field needs. */
export interface TextFieldForm<V extends FieldValues> {
  register: UseFormRegister<V>;
  errorOf: (name: Path<V>) => string | undefined;
}

/** A labelled text input of a form, with its hint and its message. */
export function TextField<V extends FieldValues>({
  form,
  name,
  label,
  hint,
  className,
  ...input
}: Omit<ComponentProps<"input">, "name" | "form"> & {
  form: TextFieldForm<V>;
  name: Path<V>;
  label: string;
  hint?: string;
}) {
  return (
    <FormField label={label} hint={hint} error={form.errorOf(name)} className={className}>
      <Input {...input} {...form.register(name)} />
    </FormField>
  );
}
