import { MAIL_CATALOGUE, MAIL_NAMES } from "@app/mail";
import {
  ZAuditListInput,
  ZCongressInput,
  ZContentInput,
  ZContentListInput,
  ZContentPageInput,
  ZCopySourceInput,
  ZCopyTemplatesInput,
  ZId,
  ZImageUpload,
  ZLegalPageInput,
  ZMailOutboxListInput,
  ZMailTemplateCreateInput,
  ZMailTemplateInput,
  ZMailTemplateListInput,
  ZMailTemplatePageInput,
  ZPackageInput,
  ZPageInput,
  ZPaymentNotificationListInput,
  ZUserListInput,
  ZUserUpdateInput,
  ZVideoLengthInput,
  ZWebinarReportUpload,
} from "@app/shared";
import { z } from "zod";
import { listAudit, listAuditActors } from "../services/admin/audit-log";
import { deleteCongress, listCongresses, pageCongresses, saveCongress } from "../services/admin/congresses";
import { deleteContent, listContents, pageContents, saveContent } from "../services/admin/contents";
import { loadDashboard } from "../services/admin/dashboard";
import { uploadImage } from "../services/admin/images";
import { listOutbox, resendMail } from "../services/admin/mail-outbox";
import {
  copyTemplates,
  createTemplate,
  listCopySource,
  listTemplates,
  pageTemplates,
  previewTemplate,
  saveTemplate,
  sendTestMail,
} from "../services/admin/mail-templates";
import { deletePackage, listAllPackages, pagePackages, savePackage } from "../services/admin/packages";
import { getPaymentNotification, listPaymentNotifications } from "../services/admin/payment-notifications";
import { deleteUser, getUser, listUsers, setUserActive, updateUser } from "../services/admin/users";
import { applyReport, previewReport } from "../services/admin/webinar-report/import";
import { fetchVideoDurationsSoon } from "../services/fortbildung/video-durations";
import { saveLegalPage } from "../services/privacy/legal-pages";
import { vimeoLength } from "../services/visitor/video-preview";
import type { Context } from "../trpc/context";
import { adminProcedure, router } from "../trpc/init";
import { adminCertificatesRouter } from "./certificates";
import { adminFortbildungRouter } from "./fortbildung";
import { adminLearningChecksRouter } from "./learning-checks";
import { twoFactorRouter } from "./two-factor";

const templateDraft = z.object({
  name: z.string().max(100),
  subject: z.string().max(300),
  content: z.string().max(200_000),
});
const byId = z.object({ id: ZId });

/** Everything of /admin/manage; every procedure requires ROLE_ADMIN. */
/**
 * A write to an account: whether its sessions still stand is read again on this instance's next call at
 * once (other instances hear of the change from the database, see `SessionStates`).
 */
async function accountWrite<T>(ctx: Pick<Context, "sessionStates">, userId: number, write: Promise<T>) {
  try {
    return await write;
  } finally {
    ctx.sessionStates.drop([userId]);
  }
}

export const adminRouter = router({
  getDashboard: adminProcedure.query(({ ctx }) => loadDashboard(ctx)),
  congresses: router({
    /** the whole list: REST and the event selects of other tabs */
    list: adminProcedure.query(({ ctx }) => listCongresses(ctx)),
    getPage: adminProcedure.input(ZPageInput).query(({ ctx, input }) => pageCongresses(ctx, input)),
    save: adminProcedure.input(ZCongressInput).mutation(async ({ ctx, input }) => {
      const saved = await saveCongress(ctx.db, input, ctx.user.id);
      fetchVideoDurationsSoon(ctx, saved.id);
      return saved;
    }),
    delete: adminProcedure
      .input(byId)
      .mutation(({ ctx, input }) => deleteCongress(ctx.db, input.id, ctx.user.id)),
  }),
  packages: router({
    /** the whole list: REST and the package selects of other tabs */
    list: adminProcedure.query(({ ctx }) => listAllPackages(ctx.db)),
    getPage: adminProcedure.input(ZPageInput).query(({ ctx, input }) => pagePackages(ctx.db, input)),
    save: adminProcedure
      .input(ZPackageInput)
      .mutation(({ ctx, input }) => savePackage(ctx.db, input, ctx.user.id)),
    delete: adminProcedure
      .input(byId)
      .mutation(({ ctx, input }) => deletePackage(ctx.db, input.id, ctx.user.id)),
  }),
  users: router({
    list: adminProcedure.input(ZUserListInput).query(({ ctx, input }) => listUsers(ctx.db, input)),
    get: adminProcedure.input(byId).query(({ ctx, input }) => getUser(ctx.db, input.id)),
    save: adminProcedure
      .input(ZUserUpdateInput)
      .mutation(({ ctx, input }) => accountWrite(ctx, input.id, updateUser(ctx, ctx.user.id, input))),
    setActive: adminProcedure
      .input(byId.extend({ active: z.boolean() }))
      .mutation(({ ctx, input }) =>
        accountWrite(ctx, input.id, setUserActive(ctx, ctx.user.id, input.id, input.active)),
      ),
    delete: adminProcedure
      .input(byId)
      .mutation(({ ctx, input }) => accountWrite(ctx, input.id, deleteUser(ctx.db, ctx.user.id, input.id))),
  }),
  images: router({
    /**
     * A picture as form data (field `file`). The role check of `adminProcedure` runs before the input is
     * parsed, and tRPC reads the body only for the input: nobody but an admin gets an upload read.
     */
    upload: adminProcedure.input(ZImageUpload).mutation(({ ctx, input }) => uploadImage(ctx.db, input)),
  }),
  /**
   * A webinar tool's participant report (CSV form data: `file`, `congressId`, `day`) for a day of an event:
   * `preview` writes nothing, `import` credits the matched accounts (ADR 0107). The role check runs
   * before the form is read, as for pictures.
   */
  webinarReports: router({
    preview: adminProcedure
      .input(ZWebinarReportUpload)
      .mutation(({ ctx, input }) => previewReport(ctx.db, input)),
    import: adminProcedure
      .input(ZWebinarReportUpload)
      .mutation(({ ctx, input }) => applyReport(ctx, { ...input, actorId: ctx.user.id })),
  }),
  legalPages: router({
    save: adminProcedure
      .input(ZLegalPageInput)
      .mutation(({ ctx, input }) => saveLegalPage(ctx, input, ctx.user.id)),
  }),
  mailTemplates: router({
    /**
     * every mail with its variables, for the help pages (generated from the catalogue, never drifts), and
     * whether an event may have its own template of it ("Neue Vorlage" offers only those)
     */
    getCatalogue: adminProcedure.query(() =>
      MAIL_NAMES.map((name) => ({
        name,
        description: MAIL_CATALOGUE[name].description,
        variables: MAIL_CATALOGUE[name].variables,
        perEvent: MAIL_CATALOGUE[name].perEvent,
      })),
    ),
    /** the whole list: REST */
    list: adminProcedure
      .input(ZMailTemplateListInput.default({ congressId: null }))
      .query(({ ctx, input }) => listTemplates(ctx.db, input.congressId)),
    getPage: adminProcedure
      .input(ZMailTemplatePageInput)
      .query(({ ctx, input }) => pageTemplates(ctx.db, input)),
    save: adminProcedure
      .input(ZMailTemplateInput)
      .mutation(({ ctx, input }) => saveTemplate(ctx.db, input, ctx.user.id)),
    /** "Neue Vorlage": an event's own template, starting from the general one of that mail */
    create: adminProcedure
      .input(ZMailTemplateCreateInput)
      .mutation(({ ctx, input }) => createTemplate(ctx.db, input, ctx.user.id)),
    /** the copy form asks before its confirmation: a source without templates is said at once */
    getCopySource: adminProcedure
      .input(ZCopySourceInput)
      .query(({ ctx, input }) => listCopySource(ctx.db, input)),
    copy: adminProcedure
      .input(ZCopyTemplatesInput)
      .mutation(({ ctx, input }) => copyTemplates(ctx.db, input, ctx.user.id)),
    preview: adminProcedure.input(templateDraft).mutation(({ ctx, input }) => previewTemplate(ctx, input)),
    sendTest: adminProcedure
      .input(templateDraft)
      .mutation(({ ctx, input }) => sendTestMail(ctx, { ...input, actorId: ctx.user.id })),
  }),
  twoFactor: twoFactorRouter,
  fortbildung: adminFortbildungRouter,
  learningChecks: adminLearningChecksRouter,
  certificates: adminCertificatesRouter,
  /** read only: no procedure changes or deletes an entry */
  audit: router({
    list: adminProcedure.input(ZAuditListInput).query(({ ctx, input }) => listAudit(ctx.db, input)),
    listActors: adminProcedure.query(({ ctx }) => listAuditActors(ctx.db)),
  }),
  mailOutbox: router({
    list: adminProcedure.input(ZMailOutboxListInput).query(({ ctx, input }) => listOutbox(ctx.db, input)),
    resend: adminProcedure
      .input(byId)
      .mutation(({ ctx, input }) => resendMail(ctx, { id: input.id, actorId: ctx.user.id })),
  }),
  /** read only: the support view of every Digistore24 notification and what became of it */
  paymentNotifications: router({
    list: adminProcedure
      .input(ZPaymentNotificationListInput)
      .query(({ ctx, input }) => listPaymentNotifications(ctx.db, input)),
    get: adminProcedure.input(byId).query(({ ctx, input }) => getPaymentNotification(ctx.db, input.id)),
  }),
  contents: router({
    /** the whole list: REST */
    list: adminProcedure
      .input(ZContentListInput.default({ search: "" }))
      .query(({ ctx, input }) => listContents(ctx.db, input.search)),
    getPage: adminProcedure.input(ZContentPageInput).query(({ ctx, input }) => pageContents(ctx.db, input)),
    save: adminProcedure.input(ZContentInput).mutation(async ({ ctx, input }) => {
      const saved = await saveContent(ctx.db, input, ctx.user.id);
      fetchVideoDurationsSoon(ctx, saved.congressId);
      return saved;
    }),
    delete: adminProcedure
      .input(byId)
      .mutation(({ ctx, input }) => deleteContent(ctx.db, input.id, ctx.user.id)),
    /** Vimeo's length of a video address, for the editor to fill in an empty length (ADR 0105) */
    getVideoLength: adminProcedure
      .input(ZVideoLengthInput)
      .query(({ ctx, input }) => vimeoLength(ctx, input)),
  }),
});
