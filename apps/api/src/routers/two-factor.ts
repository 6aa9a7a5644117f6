import { TWO_FACTOR_MSG, ZTwoFactorCodeInput } from "@app/shared";
import { withCookie } from "../services/auth/session";
import {
  beginTwoFactorSetup,
  disableTwoFactor,
  enableTwoFactor,
  renewRecoveryCodes,
  twoFactorStatus,
} from "../services/auth/two-factor-setup";
import { adminProcedure, router } from "../trpc/init";

/** The signed-in admin's own two-factor login (authenticator app and recovery codes). */
export const twoFactorRouter = router({
  getStatus: adminProcedure.query(({ ctx }) => twoFactorStatus(ctx, ctx.user.id)),
  /** a new secret with its QR code (an SVG data URL); active only after `enable` */
  begin: adminProcedure.mutation(({ ctx }) => beginTwoFactorSetup(ctx, ctx.user.id)),
  /** the ten recovery codes, shown this once */
  enable: adminProcedure.input(ZTwoFactorCodeInput).mutation(async ({ ctx, input }) => {
    const { recoveryCodes, session } = await enableTwoFactor(ctx, { userId: ctx.user.id, code: input.code });
    return { recoveryCodes, session: withCookie(ctx, session), detail: TWO_FACTOR_MSG.enabled };
  }),
  /** ten new recovery codes for a current app code, shown this once; the earlier ones stop working */
  renewRecoveryCodes: adminProcedure.input(ZTwoFactorCodeInput).mutation(async ({ ctx, input }) => ({
    ...(await renewRecoveryCodes(ctx, { userId: ctx.user.id, code: input.code })),
    detail: TWO_FACTOR_MSG.recoveryCodesRenewed,
  })),
  /** every session ends with the switch; the caller's browser gets the new one it answers with */
  disable: adminProcedure.input(ZTwoFactorCodeInput).mutation(async ({ ctx, input }) => {
    const { detail, session } = await disableTwoFactor(ctx, { userId: ctx.user.id, code: input.code });
    return { detail, session: withCookie(ctx, session) };
  }),
});
