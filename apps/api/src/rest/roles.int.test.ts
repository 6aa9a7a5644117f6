import { connect } from "node:net";
import { MSG } from "@app/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../testing/builders";
import { createTestApp, type TestApp } from "../testing/harness";

/**
 * The role a REST path declares is checked before its body is read (ADR 0098): a stranger's
 * upload or admin form is refused while its body is still on the way, so nobody but the role gets a body
 * parsed or an upload buffered.
 */

let t: TestApp;
let port: number;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ host: "127.0.0.1", port: 0 });
  const address = t.app.server.address();
  port = typeof address === "object" && address ? address.port : 0;
});

afterAll(async () => {
  await t?.close();
});

/**
 * Sends a request's head and the first bytes of a much longer body, then waits: the answer must come
 * while the rest of the body is never sent. A server that reads the body first would wait for it.
 */
function answerBeforeBody(head: string[], firstBytes: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let received = Buffer.alloc(0);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer while the body was incomplete; got: ${received.toString().slice(0, 200)}`));
    }, 3000);
    socket.on("data", (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf("\r\n\r\n");
      const head = received.subarray(0, Math.max(end, 0)).toString("latin1");
      const length = /content-length: (\d+)/i.exec(head)?.[1];
      if (end >= 0 && length !== undefined && received.length >= end + 4 + Number(length)) {
        clearTimeout(timer);
        socket.destroy();
        resolve({
          status: Number(head.slice(9, 12)),
          body: received.subarray(end + 4, end + 4 + Number(length)).toString("utf8"),
        });
      }
    });
    socket.on("error", reject);
    socket.write(`${head.join("\r\n")}\r\n\r\n${firstBytes}`);
  });
}

const refused = (status: number) =>
  status === 401
    ? { title: MSG.unauthorizedTitle, detail: MSG.unauthorizedDetail }
    : { title: MSG.forbiddenTitle, detail: MSG.forbiddenDetail };

describe("the declared role of a REST path", () => {
  it("refuses an anonymous multipart upload before reading its body", async () => {
    const boundary = "----roles-boundary";
    const answer = await answerBeforeBody(
      [
        "POST /api/images HTTP/1.1",
        "Host: localhost",
        `Content-Type: multipart/form-data; boundary=${boundary}`,
        `Content-Length: ${4 * 1024 * 1024}`,
      ],
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
    );
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.body)).toEqual(refused(401));
  });

  it("refuses a visitor's JSON admin form before reading its body (the body parser never runs)", async () => {
    const visitor = await createUser(t.db.db);
    const token = await t.tokenFor(visitor.id);
    for (const [url, status, auth] of [
      ["/api/user", 401, []],
      ["/api/congress-package-order", 403, [`Authorization: Bearer ${token}`]],
      ["/api/mail-template/copy", 403, [`Authorization: Bearer ${token}`]],
    ] as const) {
      const answer = await answerBeforeBody(
        [
          `POST ${url} HTTP/1.1`,
          "Host: localhost",
          "Content-Type: application/json",
          "Content-Length: 900000",
          ...auth,
        ],
        '{"userData": "',
      );
      expect(answer.status, url).toBe(status);
      expect(JSON.parse(answer.body), url).toEqual(refused(status));
    }
  });

  it("refuses an admin export to a visitor with the same German body as a procedure", async () => {
    const visitor = await createUser(t.db.db);
    const res = await t.app.inject({
      method: "GET",
      url: "/api/admin/exports/users.csv",
      headers: { authorization: `Bearer ${await t.tokenFor(visitor.id)}` },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual(refused(403));
    const anonymous = await t.app.inject({ method: "GET", url: "/api/admin/exports/users.csv" });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual(refused(401));
  });
});
