import { type Db, schema } from "@app/db";
import { MSG } from "@app/shared";
import { eq } from "drizzle-orm";
import type { FastifyInstance, FastifyReply } from "fastify";
import { THUMBNAIL_PATH, videoThumbnail } from "./services/visitor/video-preview";

function sendImage(reply: FastifyReply, data: Buffer, type: string, etag?: string) {
  if (etag) {
    // uploaded pictures are named after their content and never change
    reply.header("etag", `"${etag}"`).header("cache-control", "public, max-age=31536000, immutable");
  } else {
    reply.header("cache-control", "public, max-age=86400");
  }
  return reply.header("x-content-type-options", "nosniff").type(type).send(data);
}

const notFound = (reply: FastifyReply) =>
  reply.status(404).send({ title: MSG.notFoundTitle, detail: MSG.notFoundDetail });

/** Uploaded pictures (kept in PostgreSQL, ADR 0008) and cached video thumbnails. */
export function registerUploads(app: FastifyInstance, db: Db): void {
  app.get<{ Params: { key: string } }>(`${THUMBNAIL_PATH}:key`, async (req, reply) => {
    const image = /^[0-9a-f]{64}$/.test(req.params.key) ? await videoThumbnail(db, req.params.key) : null;
    return image ? sendImage(reply, image.data, image.type) : notFound(reply);
  });
  app.get<{ Params: { fileName: string } }>("/uploads/images/:fileName", async (req, reply) => {
    // stored names are `<hash>.webp`; anything else (a NUL, a path, 5000 characters) is not looked up at all
    if (!/^[\w.-]{1,200}$/.test(req.params.fileName)) {
      return notFound(reply);
    }
    const { images } = schema;
    const [image] = await db
      .select({ data: images.data, mimeType: images.mimeType, sha256: images.sha256 })
      .from(images)
      .where(eq(images.fileName, req.params.fileName));
    if (!image) {
      return notFound(reply);
    }
    if (req.headers["if-none-match"] === `"${image.sha256}"`) {
      return reply.status(304).send();
    }
    return sendImage(reply, image.data, image.mimeType, image.sha256);
  });
}
