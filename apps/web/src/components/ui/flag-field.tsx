import { type Control, Controller, type FieldPathByValue, type FieldValues } from "react-hook-form";
import { Checkbox } from "./checkbox";
import { InlineField } from "./form-field";
import { Switch } from "./switch";

/** A yes/no value of a react-hook-form form, as a checkbox or a switch with its label beside it. */
export function FlagField<V extends FieldValues>({
  control,
  name,
  label,
  as = "checkbox",
}: {
  // biome-ignore lint/suspicious/noExplicitAny: the form's parsed output type does not matter here
  control: Control<V, any, any>;
  name: FieldPathByValue<V, boolean>;
  label: string;
  as?: "checkbox" | "switch";
}) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <InlineField label={label}>
          {as === "switch" ? (
            <Switch checked={field.value} onCheckedChange={field.onChange} />
          ) : (
            <Checkbox checked={field.value} onCheckedChange={field.onChange} />
          )}
        </InlineField>
      )}
    />
  );
}
