import {
  MSG,
  ORDER_KIND_NAMES,
  ZChamberReportQuery,
  ZFortbildungDayInput,
  ZId,
  ZOrderListInput,
  ZRecordingReportQuery,
  ZUserListInput,
} from "@app/shared";
import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { chamberReport, recordingChamberReport } from "../services/exports/chamber-report";
import { fortbildungExport } from "../services/exports/fortbildung";
import { type NamedExport, orderExport, participantsExport, usersExport } from "../services/exports/sources";
import {
  CONTENT_TYPES,
  EXPORT_FORMATS,
  type ExportFormat,
  exportStream,
  withFirstBatch,
} from "../services/exports/table-file";
import type { RestRoute } from "./adapter";

const ZFormat = z.object({
  format: z.enum(EXPORT_FORMATS, { error: "Unbekanntes Dateiformat: bitte csv oder xlsx." }),
});
const ZParticipantsParams = ZFormat.extend({
  congressId: ZId,
});
const ZRecordingReportParams = ZFormat.extend({ learningCheckId: ZId });
// PostgreSQL text holds no NUL: refused here with the German message, before the download starts
const noNul = (text: string) => !text.includes("\u0000");
/** the order tables' search, without the page (an export has every matching row) */
const ZOrderExportQuery = z.object({
  search: ZOrderListInput.shape.search.refine(noNul, MSG.invalidValueDetail),
});
const ZUserExportQuery = z.object({
  name: ZUserListInput.shape.name.refine(noNul, MSG.invalidValueDetail),
  email: ZUserListInput.shape.email.refine(noNul, MSG.invalidValueDetail),
});

/** the Fortbildung section's day and filter (none: every day, everyone) */
const ZFortbildungExportQuery = ZFortbildungDayInput.pick({ day: true, reached: true });

const formatOf = (req: FastifyRequest): ExportFormat => ZFormat.parse(req.params).format;

/**
 * Sends the export as a download; the rows stream from the database while the file goes out. The first
 * batch is read before the answer starts, so a failing query is still a `{title, detail}` error.
 */
async function download<Row>(reply: FastifyReply, table: NamedExport<Row>, format: ExportFormat) {
  const file = await withFirstBatch<NamedExport<Row>, Row>(table);
  reply
    .header("content-type", CONTENT_TYPES[format])
    .header("content-disposition", `attachment; filename="${file.fileName}"`)
    // personal data: never kept by a browser or proxy cache
    .header("cache-control", "no-store");
  return exportStream(file, format);
}

/**
 * The admin's exports (CSV or XLSX): participants of an event, package and ticket orders, users. Their
 * declared role (admin: account still active and ROLE_ADMIN) is checked before anything is read; each
 * streams a service past the procedures (a procedure's answer is one value, not a stream), named here and
 * in the path's row of the authorisation matrix.
 */
export const exportRestRoutes: RestRoute[] = [
  {
    method: "GET",
    url: "/admin/exports/participants/:congressId.:format",
    role: "admin",
    service: "participantsExport",
    handler: async (_caller, req, reply, ctx) => {
      const { congressId, format } = ZParticipantsParams.parse(req.params);
      return download(reply, await participantsExport(ctx, congressId, format), format);
    },
  },
  ...ORDER_KIND_NAMES.map(
    (kind): RestRoute => ({
      method: "GET",
      url: `/admin/exports/${kind}-orders.:format`,
      role: "admin",
      service: "orderExport",
      handler: async (_caller, req, reply, ctx) => {
        const format = formatOf(req);
        const input = ZOrderExportQuery.parse(req.query);
        return download(reply, orderExport(ctx, kind, input, format), format);
      },
    }),
  ),
  {
    method: "GET",
    url: "/admin/exports/fortbildung/:congressId.:format",
    role: "admin",
    service: "fortbildungExport",
    handler: async (_caller, req, reply, ctx) => {
      const { congressId, format } = ZParticipantsParams.parse(req.params);
      const query = ZFortbildungExportQuery.parse(req.query);
      return download(reply, await fortbildungExport(ctx, { ...query, congressId }, format), format);
    },
  },
  {
    // the chamber's report of one day (ADR 0113): with EFN (CSV: `list=ohne-efn` for the others)
    method: "GET",
    url: "/admin/exports/chamber-report/:congressId.:format",
    role: "admin",
    service: "chamberReport",
    handler: async (_caller, req, reply, ctx) => {
      const { congressId, format } = ZParticipantsParams.parse(req.params);
      const query = ZChamberReportQuery.parse(req.query);
      return download(reply, await chamberReport(ctx, { ...query, congressId }, format), format);
    },
  },
  {
    // a learning check's passes, as the chamber's report of the recording (its own VNR): CSV `list=ohne-efn`
    method: "GET",
    url: "/admin/exports/recording-chamber-report/:learningCheckId.:format",
    role: "admin",
    service: "recordingChamberReport",
    handler: async (_caller, req, reply, ctx) => {
      const { learningCheckId, format } = ZRecordingReportParams.parse(req.params);
      const { list } = ZRecordingReportQuery.parse(req.query);
      return download(reply, await recordingChamberReport(ctx, { learningCheckId, list }, format), format);
    },
  },
  {
    method: "GET",
    url: "/admin/exports/users.:format",
    role: "admin",
    service: "usersExport",
    handler: async (_caller, req, reply, ctx) => {
      const format = formatOf(req);
      const input = ZUserExportQuery.parse(req.query);
      return download(reply, usersExport(ctx, input, format), format);
    },
  },
];
