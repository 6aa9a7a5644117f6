import {
  MSG_EFN,
  MSG_PRIVACY,
  ZDeleteAccountInput,
  ZEfnInput,
  ZLegalSlug,
  ZNewsletterInput,
} from "@app/shared";
import { z } from "zod";
import { getProfile, setEfn } from "../services/account";
import { REFRESH_COOKIE } from "../services/auth/session";
import {
  consentHistory,
  deleteAccount,
  exportAccountData,
  setNewsletter,
} from "../services/privacy/account-data";
import { getLegalPage } from "../services/privacy/legal-pages";
import { publicProcedure, router, userProcedure } from "../trpc/init";

/** The signed-in visitor's own account, including the DSGVO self-service of the profile page. */
export const accountRouter = router({
  getProfile: userProcedure.query(({ ctx }) => getProfile(ctx.db, ctx.user.id)),
  listConsents: userProcedure.query(({ ctx }) => consentHistory(ctx.db, ctx.user.id)),
  setNewsletter: userProcedure.input(ZNewsletterInput).mutation(async ({ ctx, input }) => {
    const newsletter = await setNewsletter(ctx, ctx.user.id, input.newsletter, "profile");
    return { newsletter, detail: newsletter ? MSG_PRIVACY.newsletterOn : MSG_PRIVACY.newsletterOff };
  }),
  /** the Einheitliche Fortbildungsnummer (ADR 0112): saved as its 15 digits, or cleared by an empty field */
  setEfn: userProcedure.input(ZEfnInput).mutation(async ({ ctx, input }) => {
    const { efn } = await setEfn(ctx.db, ctx.user.id, input.efn);
    return { efn, detail: efn ? MSG_EFN.saved : MSG_EFN.cleared };
  }),
  export: userProcedure.query(({ ctx }) => exportAccountData(ctx, ctx.user.id)),
  delete: userProcedure.input(ZDeleteAccountInput).mutation(async ({ ctx, input }) => {
    await deleteAccount(ctx, ctx.user.id, input.password);
    ctx.cookies.clear(REFRESH_COOKIE);
    return { title: MSG_PRIVACY.deleteTitle, detail: MSG_PRIVACY.accountDeleted };
  }),
});

/** Datenschutz, Impressum and the accessibility statement, for everybody. */
export const legalRouter = router({
  getPage: publicProcedure
    .input(z.object({ slug: ZLegalSlug }))
    .query(({ ctx, input }) => getLegalPage(ctx.db, input.slug)),
});
