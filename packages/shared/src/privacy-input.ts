import { z } from "zod";
import "./zod-locale";
import { MSG } from "./messages";
import { LEGAL_PAGES, MSG_PRIVACY } from "./privacy";

export const ZDeleteAccountInput = z.object({
  password: z.string().min(1, MSG_PRIVACY.passwordRequired).max(256, MSG.passwordTooLong),
});
export type TDeleteAccountInput = z.infer<typeof ZDeleteAccountInput>;

export const ZNewsletterInput = z.object({ newsletter: z.boolean() });

export const ZLegalSlug = z.enum(LEGAL_PAGES);
export const ZLegalPageInput = z.object({
  slug: ZLegalSlug,
  html: z.string().trim().min(1, MSG_PRIVACY.legalPageEmpty).max(200_000, MSG_PRIVACY.legalPageTooLong),
});
export type TLegalPageInput = z.infer<typeof ZLegalPageInput>;
