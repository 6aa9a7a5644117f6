import { z } from "zod";
import "./zod-locale";
import { zForm } from "./field-text";
import { TWO_FACTOR_MSG } from "./two-factor";

/** a six-digit TOTP code or a recovery code (XXXXX-XXXXX); spaces and dashes are ignored on the server */
const code = z
  .string({ error: TWO_FACTOR_MSG.codeRequired })
  .trim()
  .min(1, TWO_FACTOR_MSG.codeRequired)
  .max(40, TWO_FACTOR_MSG.codeInvalid);

export const ZTwoFactorCodeInput = zForm({ code });
export type TTwoFactorCodeInput = z.infer<typeof ZTwoFactorCodeInput>;

export const ZTwoFactorLoginInput = zForm({
  challenge: z
    .string({ error: TWO_FACTOR_MSG.challengeExpired })
    .min(1, TWO_FACTOR_MSG.challengeExpired)
    .max(2000, TWO_FACTOR_MSG.challengeExpired),
  code,
});
export type TTwoFactorLoginInput = z.infer<typeof ZTwoFactorLoginInput>;
