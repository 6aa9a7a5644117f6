import {
  ZCertificateCodeInput,
  ZCertificateIdInput,
  ZCertificateIssuerInput,
  ZCertificateListInput,
  ZCertificateRevokeInput,
} from "@app/shared";
import {
  adminCertificateFile,
  listCertificates,
  reissueCertificate,
  revokeCertificate,
} from "../services/certificates/admin";
import { myCertificateFile, myCertificates, verifyCertificate } from "../services/certificates/files";
import { loadIssuer, saveIssuer } from "../services/certificates/issuer";
import { adminProcedure, publicProcedure, router, userProcedure } from "../trpc/init";

/** Teilnahmebescheinigungen (ADR 0116): the participant's own, and the public verification. */
export const certificateRouter = router({
  /** "Meine Bescheinigungen" (issues the event certificates due for the participant first, ADR 0116) */
  listMine: userProcedure.query(({ ctx }) => myCertificates(ctx, ctx.user.id)),
  /** one of the participant's own certificates as a PDF (base64) */
  getPdf: userProcedure
    .input(ZCertificateIdInput)
    .query(({ ctx, input }) => myCertificateFile(ctx, { ...input, userId: ctx.user.id })),
  /** `/bescheinigung/<code>`: public, rate-limited per client address, by the code's hash only */
  verify: publicProcedure
    .input(ZCertificateCodeInput)
    .query(({ ctx, input }) => verifyCertificate(ctx, input.code)),
});

/** The section "Bescheinigungen" (`admin.certificates`): the issuer, the list per event, revoke, re-issue. */
export const adminCertificatesRouter = router({
  getIssuer: adminProcedure.query(({ ctx }) => loadIssuer(ctx.db)),
  saveIssuer: adminProcedure
    .input(ZCertificateIssuerInput)
    .mutation(({ ctx, input }) => saveIssuer(ctx.db, input, ctx.user.id)),
  list: adminProcedure
    .input(ZCertificateListInput)
    .query(({ ctx, input }) => listCertificates(ctx.db, input)),
  getPdf: adminProcedure
    .input(ZCertificateIdInput)
    .query(({ ctx, input }) => adminCertificateFile(ctx, input.id)),
  revoke: adminProcedure
    .input(ZCertificateRevokeInput)
    .mutation(({ ctx, input }) => revokeCertificate(ctx, input, ctx.user.id)),
  reissue: adminProcedure
    .input(ZCertificateIdInput)
    .mutation(({ ctx, input }) => reissueCertificate(ctx, input, ctx.user.id)),
});
