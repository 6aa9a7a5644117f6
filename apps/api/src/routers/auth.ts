import {
  MSG,
  ZConfirmMailInput,
  ZEmailInput,
  ZLoginInput,
  ZMigrationSetPasswordInput,
  ZRefreshInput,
  ZRegisterInput,
  ZResendConfirmationInput,
  ZResetPasswordInput,
  ZResetTokenInput,
  ZSignInLinkInput,
  ZTwoFactorLoginInput,
} from "@app/shared";
import { AppError } from "../lib/app-error";
import {
  migrationSetPassword,
  requestPasswordReset,
  resetPassword,
  validateResetToken,
} from "../services/auth/password";
import { confirmMail, register, resendConfirmation } from "../services/auth/register";
import { login, logout, REFRESH_COOKIE, refresh, withCookie } from "../services/auth/session";
import { requestSignInLink, signInWithLink } from "../services/auth/sign-in-link";
import { completeTwoFactorLogin } from "../services/auth/two-factor-login";
import { publicProcedure, router } from "../trpc/init";

export const authRouter = router({
  register: publicProcedure.input(ZRegisterInput).mutation(async ({ ctx, input }) => {
    await register(ctx, input);
    return { title: MSG.registrationSuccessTitle, detail: MSG.registrationSuccess };
  }),
  confirmMail: publicProcedure.input(ZConfirmMailInput).mutation(({ ctx, input }) => confirmMail(ctx, input)),
  resendConfirmation: publicProcedure
    .input(ZResendConfirmationInput)
    .mutation(({ ctx, input }) => resendConfirmation(ctx, input)),
  /** a session, or for an account with two-factor login a challenge for `loginTwoFactor` */
  login: publicProcedure.input(ZLoginInput).mutation(async ({ ctx, input }) => {
    const result = await login(ctx, input);
    return "challenge" in result ? result : withCookie(ctx, result);
  }),
  loginTwoFactor: publicProcedure
    .input(ZTwoFactorLoginInput)
    .mutation(async ({ ctx, input }) => withCookie(ctx, await completeTwoFactorLogin(ctx, input))),
  refresh: publicProcedure.input(ZRefreshInput).mutation(async ({ ctx, input }) => {
    const presented = input.refreshToken ?? ctx.cookies.get(REFRESH_COOKIE);
    if (!presented) {
      throw new AppError("UNAUTHORIZED", "no refresh token", MSG.sessionExpired);
    }
    try {
      return withCookie(ctx, await refresh(ctx, presented));
    } catch (error) {
      ctx.cookies.clear(REFRESH_COOKIE);
      throw error;
    }
  }),
  logout: publicProcedure.input(ZRefreshInput).mutation(async ({ ctx, input }) => {
    await logout(ctx, input.refreshToken ?? ctx.cookies.get(REFRESH_COOKIE));
    ctx.cookies.clear(REFRESH_COOKIE);
    return { ok: true as const };
  }),
  requestPasswordReset: publicProcedure
    .input(ZEmailInput)
    .mutation(({ ctx, input }) => requestPasswordReset(ctx, input)),
  validateResetToken: publicProcedure
    .input(ZResetTokenInput)
    .query(({ ctx, input }) => validateResetToken(ctx, input)),
  resetPassword: publicProcedure
    .input(ZResetPasswordInput)
    .mutation(({ ctx, input }) => resetPassword(ctx, input)),
  /** a one-time link by mail for an owner whose sign-in strangers' failures refuse (ADR 0091) */
  requestSignInLink: publicProcedure
    .input(ZEmailInput)
    .mutation(({ ctx, input }) => requestSignInLink(ctx, input)),
  /** a session, or for an account with two-factor login a challenge for `loginTwoFactor` */
  signInWithLink: publicProcedure.input(ZSignInLinkInput).mutation(async ({ ctx, input }) => {
    const result = await signInWithLink(ctx, input);
    return "challenge" in result ? result : withCookie(ctx, result);
  }),
  setMigrationPassword: publicProcedure
    .input(ZMigrationSetPasswordInput)
    .mutation(({ ctx, input }) => migrationSetPassword(ctx, input)),
});
