import { z } from "zod";
import "./zod-locale";
import { checkEfn, MSG_EFN } from "./efn";
import { zForm } from "./field-text";

/**
 * An EFN as typed, pasted or scanned: its 15 digits, or `null` for an empty field (which clears it). A
 * refusal says which of the three it is: other characters than digits, the wrong number of digits, or a
 * check digit that does not fit.
 */
export const zEfn = z
  .string({ error: MSG_EFN.text })
  .max(64, MSG_EFN.tooLong)
  .transform((input, ctx) => {
    const result = checkEfn(input);
    if (result.ok) {
      return result.efn;
    }
    ctx.issues.push({ code: "custom", message: result.message, input });
    return z.NEVER;
  });

/** The profile's EFN field, and the congress page's prompt for it (`account.setEfn`). */
export const ZEfnInput = zForm({ efn: zEfn });
export type TEfnInput = z.input<typeof ZEfnInput>;
