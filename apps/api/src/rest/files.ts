import type { FastifyReply } from "fastify";
import type { RestRoute } from "./adapter";

/** A PDF the procedure answered as base64, sent as a file. */
function pdfFile(reply: FastifyReply, file: { fileName: string; base64: string }): Buffer {
  reply.type("application/pdf").header("content-disposition", `attachment; filename="${file.fileName}"`);
  return Buffer.from(file.base64, "base64");
}

/**
 * Files of the visitor area as files (the web app gets the same content through tRPC and saves it as a
 * Blob, because its access token lives in memory and a plain link could not send it).
 */
export const fileRestRoutes: RestRoute[] = [
  {
    method: "GET",
    url: "/congress/:id/calendar.ics",
    role: "user",
    handler: async (caller, req, reply) => {
      const file = await caller.congress.getCalendar({ congressId: req.params.id });
      reply
        .type("text/calendar; charset=utf-8")
        .header("content-disposition", `attachment; filename="${file.fileName}"`);
      return file.content;
    },
  },
  {
    method: "GET",
    url: "/congress/:id/attendance-confirmation.pdf",
    role: "user",
    handler: async (caller, req, reply) => {
      return pdfFile(reply, await caller.attendance.getCertificate({ congressId: req.params.id }));
    },
  },
  {
    // a participant's own Teilnahmebescheinigung (ADR 0118); another's is "not found"
    method: "GET",
    url: "/certificates/:id.pdf",
    role: "user",
    handler: async (caller, req, reply) => {
      return pdfFile(reply, await caller.certificate.getPdf({ id: req.params.id }));
    },
  },
];
