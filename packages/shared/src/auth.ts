import { z } from "zod";
import "./zod-locale";
import { MIN_PASSWORD_LENGTH } from "./constants";
import { ZId, zId } from "./ids";
import { MSG } from "./messages";

/** Input schemas of the account flows; the web forms and the API procedures use the same objects. */

const email = (required: string) =>
  z.string().trim().min(1, required).max(254, MSG.emailInvalid).pipe(z.email(MSG.emailInvalid));

/** argon2 work is bounded by refusing absurdly long passwords before hashing. */
const password = (required: string) => z.string().min(1, required).max(256, MSG.passwordTooLong);
const newPassword = (required: string) => password(required).min(MIN_PASSWORD_LENGTH, MSG.passwordMinLength);

const optionalCongressId = ZId.optional();
const optionalShowVideo = z
  .union([z.boolean(), z.enum(["true", "false", "1", "0"])])
  .transform((v) => v === true || v === "true" || v === "1")
  .optional();

export const ZLoginInput = z.object({
  email: z.string().trim().min(1, MSG.emailRequired).max(254),
  password: password(MSG.passwordRequired),
});
export type TLoginInput = z.infer<typeof ZLoginInput>;

export const ZRegisterInput = z.object({
  firstname: z.string().trim().min(1, MSG.firstnameRequired).max(100),
  lastname: z.string().trim().min(1, MSG.lastnameRequired).max(100),
  email: email(MSG.emailRequired),
  password: newPassword(MSG.passwordRequired),
  dataProtection: z.literal(true, { error: MSG.dataProtectionRequired }),
  newsletter: z.boolean().default(false),
  congressId: optionalCongressId,
  showVideo: optionalShowVideo,
});
export type TRegisterInput = z.input<typeof ZRegisterInput>;

export const ZConfirmMailInput = z.object({
  userId: zId(MSG.confirmMailFailed),
  hash: z.string().trim().min(1, MSG.confirmMailFailed).max(200),
});

export const ZEmailInput = z.object({ email: email(MSG.emailRequired) });

export const ZResetTokenInput = z.object({ token: z.string().min(1).max(200) });

/** The token of a sign-in link from its mail (decision 91). */
export const ZSignInLinkInput = z.object({ token: z.string().min(1).max(200) });

export const ZResetPasswordInput = z
  .object({
    token: z.string().min(1).max(200),
    password: newPassword(MSG.passwordRequired),
    passwordConfirm: z.string().min(1, MSG.passwordConfirmRequired),
  })
  .refine((v) => v.password === v.passwordConfirm, {
    message: MSG.passwordsDoNotMatch,
    path: ["passwordConfirm"],
  });

export const ZMigrationSetPasswordInput = z
  .object({
    userId: ZId,
    hash: z.string().min(1).max(200),
    password: newPassword(MSG.migrationPasswordRequired),
    /** the REST path of the spec sends no confirmation; the web form always does */
    passwordConfirm: z.string().min(1, MSG.migrationPasswordConfirmRequired).optional(),
  })
  .refine((v) => v.passwordConfirm === undefined || v.password === v.passwordConfirm, {
    message: MSG.migrationPasswordsDoNotMatch,
    path: ["passwordConfirm"],
  });

export const ZRefreshInput = z.object({ refreshToken: z.string().min(1).max(200).optional() }).default({});
