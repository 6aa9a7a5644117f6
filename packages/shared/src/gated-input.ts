import { z } from "zod";
import "./zod-locale";
import { zForm } from "./field-text";
import { MSG } from "./messages";

/** Input schemas of the two password-gated package pages; the web's password form and the API use them. */

/** a gated page's path as the visitor opened it (the paths themselves are only in the server's config) */
export const ZGatedPath = z
  .string({ error: MSG.pageNotFoundDetail })
  .min(1, MSG.pageNotFoundDetail)
  .max(300, MSG.pageNotFoundDetail);

export const ZGatedPathInput = zForm({ path: ZGatedPath });

export const ZGatedUnlockInput = zForm({
  path: ZGatedPath,
  password: z
    .string({ error: MSG.passwordRequired })
    .min(1, MSG.passwordRequired)
    .max(200, MSG.wrongPassword),
});
