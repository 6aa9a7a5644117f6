import { randomBytes } from "node:crypto";
import { request } from "node:http";
import { schema } from "@app/db";
import { MAX_IMAGE_BYTES, MSG, MSG_ADMIN } from "@app/shared";
import { count, eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../testing/builders";
import { createTestApp, type TestApp } from "../../testing/harness";

/** `admin.images.upload`: the tRPC procedure behind the pictures of the admin forms (ADR 0074). */

const { images } = schema;

let t: TestApp;
let adminToken: string;
let visitorToken: string;
let address: Promise<string> | undefined;
/** the app on a real socket, closed with it */
const listening = () => {
  address ??= t.app.listen({ host: "127.0.0.1", port: 0 });
  return address;
};
beforeAll(async () => {
  t = await createTestApp();
  const admin = await createUser(t.db.db, {
    email: `bild.admin.${Date.now()}@example.com`,
    roles: ["ROLE_USER", "ROLE_ADMIN"],
  });
  const visitor = await createUser(t.db.db, { email: `bild.besucher.${Date.now()}@example.com` });
  adminToken = await t.tokenFor(admin.id, ["ROLE_USER", "ROLE_ADMIN"]);
  visitorToken = await t.tokenFor(visitor.id);
});
afterAll(async () => {
  await t?.close();
});

const BOUNDARY = "----bild-upload-7c1e";
const CONTENT_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

/** The multipart body a browser sends for `FormData` with one file in `field`. */
function fileForm(data: Buffer, field = "file", fileName = "bild.png", type = "image/png"): Buffer {
  return Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\n` +
        `Content-Type: ${type}\r\n\r\n`,
    ),
    data,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

async function upload(payload: Buffer, token: string | undefined = adminToken) {
  // over a real socket, as a browser sends it (Fastify's inject hands tRPC's adapter no Node request)
  const res = await fetch(`${await listening()}/trpc/admin.images.upload`, {
    method: "POST",
    headers: { "content-type": CONTENT_TYPE, ...(token && { authorization: `Bearer ${token}` }) },
    body: payload,
  });
  const body = JSON.parse(await res.text());
  return {
    status: res.status,
    data: body.result?.data?.json as { fileName: string; url: string } | undefined,
    error: body.error?.json?.data as { title: string; detail: string } | undefined,
  };
}

/** A PNG of random pixels, unlike every other one (stored images are deduplicated by content). */
const png = (size = 16) =>
  sharp(randomBytes(size * size * 3), { raw: { width: size, height: size, channels: 3 } })
    .png()
    .toBuffer();

const imageCount = async () => (await t.db.db.select({ n: count() }).from(images))[0]?.n ?? 0;

describe("admin.images.upload", () => {
  it("stores a real PNG as WebP and answers its name and address", async () => {
    const before = await imageCount();
    const res = await upload(fileForm(await png()));
    expect(res.status).toBe(200);
    expect(res.data?.fileName).toMatch(/^[0-9a-f]{32}\.webp$/);
    expect(res.data?.url).toBe(`/uploads/images/${res.data?.fileName}`);
    expect(await imageCount()).toBe(before + 1);
    const served = await t.app.inject(res.data?.url ?? "");
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toBe("image/webp");
  });

  it("refuses anonymous callers and visitors before reading the body", async () => {
    // a real socket (closed with the app after the file): inject hands a route only a whole body
    const at = await listening();
    for (const [token, status] of [
      [undefined, 401],
      [visitorToken, 403],
    ] as const) {
      // a body announced as 5 MB of which only the start ever comes: had anything read it before the
      // role check, no answer would come
      const answer = await new Promise<number>((resolve, reject) => {
        const req = request(`${at}/trpc/admin.images.upload`, {
          method: "POST",
          headers: {
            "content-type": CONTENT_TYPE,
            "content-length": String(MAX_IMAGE_BYTES),
            ...(token && { authorization: `Bearer ${token}` }),
          },
        });
        req.on("response", (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
          req.destroy();
        });
        req.on("error", reject);
        req.write(fileForm(Buffer.from("halb")).subarray(0, 60));
      });
      expect(answer).toBe(status);
    }
  });

  const refused = async (payload: Buffer, detail: string = MSG_ADMIN.imageInvalid) => {
    const before = await imageCount();
    const res = await upload(payload);
    expect(res.status).toBe(400);
    expect(res.error?.detail).toBe(detail);
    expect(await imageCount()).toBe(before);
  };

  it("refuses what is no picture with the German message, storing nothing", async () => {
    // HTML named and declared as a PNG
    await refused(fileForm(Buffer.from("<!doctype html><script>alert(1)</script>")));
    // a GIF/JavaScript polyglot (valid GIF header, script body)
    await refused(fileForm(Buffer.from("GIF89a/*\x01\x00\x01\x00\x00\x00\x00*/=alert(1)//;")));
    // an empty file, a form without the file field, and a body that is no form at all
    await refused(fileForm(Buffer.alloc(0)));
    await refused(fileForm(await png(), "newPicture"));
    await refused(Buffer.from("kein Formular"), MSG.formUnreadableDetail);
  });

  it("refuses a file of 5 MB and one byte with the German message", async () => {
    const big = Buffer.alloc(MAX_IMAGE_BYTES + 1, 0x41);
    (await png()).copy(big);
    await refused(fileForm(big));
  });

  it("answers 413 to a 20 MB body, storing nothing", async () => {
    const before = await imageCount();
    const res = await upload(fileForm(Buffer.alloc(20 * 1024 * 1024, 0x41)));
    expect(res.status).toBe(413);
    expect(res.error?.detail).toBe(MSG.payloadTooLargeDetail);
    expect(await imageCount()).toBe(before);
  });

  it("stores a PNG carrying HTML behind its end as a WebP without that HTML", async () => {
    const polyglot = Buffer.concat([await png(), Buffer.from("<html><script>alert(1)</script></html>")]);
    const res = await upload(fileForm(polyglot));
    expect(res.status).toBe(200);
    const [stored] = await t.db.db
      .select()
      .from(images)
      .where(eq(images.fileName, res.data?.fileName ?? ""));
    expect(stored?.data.includes("<script")).toBe(false);
    expect(stored?.mimeType).toBe("image/webp");
  });
});
