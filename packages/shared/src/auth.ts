import { z } from "zod";
import "./zod-locale";
import { isReturnPath } from "./app-path";
import { MIN_PASSWORD_LENGTH } from "./constants";
import { MSG_FIELD, zFlag, zForm } from "./field-text";
import { ZId, zId } from "./ids";
import { MSG } from "./messages";
import { zPersonName } from "./person-name";

/** Input schemas of the account flows; the web forms and the API procedures use the same objects. */

const email = (required: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(254, MSG.emailInvalid)
    .pipe(z.email(MSG.emailInvalid));

/** argon2 work is bounded by refusing absurdly long passwords before hashing. */
const password = (required: string) =>
  z.string({ error: required }).min(1, required).max(256, MSG.passwordTooLong);
const newPassword = (required: string) => password(required).min(MIN_PASSWORD_LENGTH, MSG.passwordMinLength);

const optionalCongressId = ZId.optional();
/**
 * The guarded address the visitor came from (`/login?redirect=`), which the confirmation link carries to the
 * first login; only a path of this app (`isReturnPath`): anything else is refused, never put into a mail.
 */
const optionalReturnAddress = z
  .string({ error: MSG.returnAddressInvalid })
  .refine(isReturnPath, MSG.returnAddressInvalid)
  .optional();
const optionalShowVideo = zFlag.optional();
/** a link's token or hash: anything wrong with it is an invalid link */
const linkToken = (message: string) => z.string({ error: message }).min(1, message).max(200, message);

export const ZLoginInput = zForm({
  email: z.string({ error: MSG.emailRequired }).trim().min(1, MSG.emailRequired).max(254, MSG.emailInvalid),
  password: password(MSG.passwordRequired),
});
export type TLoginInput = z.infer<typeof ZLoginInput>;

export const ZRegisterInput = zForm({
  firstname: zPersonName("Der Vorname", MSG.firstnameRequired),
  lastname: zPersonName("Der Nachname", MSG.lastnameRequired),
  email: email(MSG.emailRequired),
  password: newPassword(MSG.passwordRequired),
  dataProtection: z.literal(true, { error: MSG.dataProtectionRequired }),
  newsletter: z.boolean({ error: MSG_FIELD.yesNo }).default(false),
  congressId: optionalCongressId,
  showVideo: optionalShowVideo,
  redirect: optionalReturnAddress,
});
export type TRegisterInput = z.input<typeof ZRegisterInput>;

export const ZConfirmMailInput = zForm({
  userId: zId(MSG.confirmMailFailed),
  hash: z
    .string({ error: MSG.confirmMailFailed })
    .trim()
    .min(1, MSG.confirmMailFailed)
    .max(200, MSG.confirmMailFailed),
});

export const ZEmailInput = zForm({ email: email(MSG.emailRequired) });

/** A new confirmation mail; its link carries the guarded address like the registration's. */
export const ZResendConfirmationInput = zForm({
  email: email(MSG.emailRequired),
  redirect: optionalReturnAddress,
});

export const ZResetTokenInput = zForm({ token: linkToken(MSG.resetPasswordInvalid) });

/** The token of a sign-in link from its mail (ADR 0091). */
export const ZSignInLinkInput = zForm({ token: linkToken(MSG.signInLinkInvalid) });

export const ZResetPasswordInput = zForm({
  token: linkToken(MSG.resetPasswordInvalid),
  password: newPassword(MSG.passwordRequired),
  passwordConfirm: z
    .string({ error: MSG.passwordConfirmRequired })
    .min(1, MSG.passwordConfirmRequired)
    .max(256, MSG.passwordTooLong),
}).refine((v) => v.password === v.passwordConfirm, {
  message: MSG.passwordsDoNotMatch,
  path: ["passwordConfirm"],
});

export const ZMigrationSetPasswordInput = zForm({
  userId: zId(MSG.migrationLinkInvalid),
  hash: linkToken(MSG.migrationLinkInvalid),
  password: newPassword(MSG.migrationPasswordRequired),
  /** the REST path of the spec sends no confirmation; the web form always does */
  passwordConfirm: z
    .string({ error: MSG.migrationPasswordConfirmRequired })
    .min(1, MSG.migrationPasswordConfirmRequired)
    .max(256, MSG.passwordTooLong)
    .optional(),
}).refine((v) => v.passwordConfirm === undefined || v.password === v.passwordConfirm, {
  message: MSG.migrationPasswordsDoNotMatch,
  path: ["passwordConfirm"],
});

export const ZRefreshInput = zForm({
  refreshToken: linkToken(MSG.sessionExpired).optional(),
}).default({});
