import { type Db, schema } from "@app/db";
import { MSG } from "@app/shared";
import { eq } from "drizzle-orm";
import type { FastifyInstance, FastifyReply } from "fastify";
import { THUMBNAIL_PATH, videoThumbnail } from "./services/visitor/video-preview";

function sendImage(reply: FastifyReply, data: Buffer, type: string) {
  return reply
    .header("cache-control", "public, max-age=86400")
    .header("x-content-type-options", "nosniff")
    .type(type)
    .send(data);
}

const notFound = (reply: FastifyReply) =>
  reply.status(404).send({ title: MSG.notFoundTitle, detail: MSG.notFoundDetail });

/** Uploaded pictures (kept in PostgreSQL, see docs/decisions.md) and cached video thumbnails. */
export function registerUploads(app: FastifyInstance, db: Db): void {
  app.get<{ Params: { key: string } }>(`${THUMBNAIL_PATH}:key`, async (req, reply) => {
    const image = /^[0-9a-f]{64}$/.test(req.params.key) ? await videoThumbnail(db, req.params.key) : null;
    return image ? sendImage(reply, image.data, image.type) : notFound(reply);
  });
  app.get<{ Params: { fileName: string } }>("/uploads/images/:fileName", async (req, reply) => {
    const { images } = schema;
    const [image] = await db
      .select({ data: images.data, mimeType: images.mimeType })
      .from(images)
      .where(eq(images.fileName, req.params.fileName));
    return image ? sendImage(reply, image.data, image.mimeType) : notFound(reply);
  });
}
