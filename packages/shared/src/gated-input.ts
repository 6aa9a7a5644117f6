import { z } from "zod";
import "./zod-locale";
import { MSG } from "./messages";

/** Input schemas of the two password-gated package pages; the web's password form and the API use them. */

/** a gated page's path as the visitor opened it (the paths themselves are only in the server's config) */
export const ZGatedPath = z.string().min(1).max(300);

export const ZGatedPathInput = z.object({ path: ZGatedPath });

export const ZGatedUnlockInput = z.object({
  path: ZGatedPath,
  password: z.string().min(1, MSG.passwordRequired).max(200),
});
