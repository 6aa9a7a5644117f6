import { z } from "zod";
import "./zod-locale";
import { MSG_FIELD, zChoice, zForm } from "./field-text";
import { MSG } from "./messages";
import { LEGAL_PAGES, MSG_PRIVACY } from "./privacy";

export const ZDeleteAccountInput = zForm({
  password: z
    .string({ error: MSG_PRIVACY.passwordRequired })
    .min(1, MSG_PRIVACY.passwordRequired)
    .max(256, MSG.passwordTooLong),
});
export type TDeleteAccountInput = z.infer<typeof ZDeleteAccountInput>;

export const ZNewsletterInput = zForm({ newsletter: z.boolean({ error: MSG_FIELD.yesNo }) });

export const ZLegalSlug = zChoice(LEGAL_PAGES, MSG.pageNotFoundDetail);
export const ZLegalPageInput = zForm({
  slug: ZLegalSlug,
  html: z
    .string({ error: MSG_PRIVACY.legalPageEmpty })
    .trim()
    .min(1, MSG_PRIVACY.legalPageEmpty)
    .max(200_000, MSG_PRIVACY.legalPageTooLong),
});
export type TLegalPageInput = z.infer<typeof ZLegalPageInput>;
