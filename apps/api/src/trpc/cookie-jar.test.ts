import fastifyCookie from "@fastify/cookie";
import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { cookieAttributes } from "../credentials/cookies";
import { cookieJar } from "./context";

/** A real Fastify answer whose cookies `use` wrote through the jar; the jar's reads come back as JSON. */
async function answer(use: (jar: ReturnType<typeof cookieJar>) => unknown, cookie?: string, secure = true) {
  const app = Fastify();
  await app.register(fastifyCookie, { hook: false });
  const attributes = cookieAttributes({
    NODE_ENV: "test",
    APP_URL: secure ? "https://app.test" : "http://app.test",
  });
  app.get("/", (req, reply) => reply.send({ read: use(cookieJar(req, reply, attributes)) ?? null }));
  const res = await app.inject({ method: "GET", url: "/", headers: cookie ? { cookie } : {} });
  await app.close();
  return { setCookie: [res.headers["set-cookie"]].flat(), read: (res.json() as { read: unknown }).read };
}

describe("cookieJar", () => {
  it("writes a cookie with every attribute the session cookies need", async () => {
    const { setCookie } = await answer((jar) => jar.set("refresh_token", "abc.DEF-_1", 2_592_000));
    expect(setCookie).toEqual([
      "refresh_token=abc.DEF-_1; Max-Age=2592000; Path=/; HttpOnly; Secure; SameSite=Strict",
    ]);
  });

  it("leaves Secure out on plain http during development", async () => {
    const { setCookie } = await answer((jar) => jar.set("a", "1", 60), undefined, false);
    expect(setCookie).toEqual(["a=1; Max-Age=60; Path=/; HttpOnly; SameSite=Strict"]);
  });

  it("keeps one header per name: a later set or clear replaces the earlier one", async () => {
    const { setCookie } = await answer((jar) => {
      jar.set("refresh_token", "first", 60);
      jar.set("known_device", "device", 120);
      jar.clear("refresh_token");
    });
    expect(setCookie).toEqual([
      "refresh_token=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=Strict",
      "known_device=device; Max-Age=120; Path=/; HttpOnly; Secure; SameSite=Strict",
    ]);
  });

  it("reads the request's cookies, decoded, and nothing when there is no header", async () => {
    expect((await answer((jar) => jar.get("b"), "a=1; b=x%20y")).read).toBe("x y");
    expect((await answer((jar) => jar.get("a"))).read).toBeNull();
    expect((await answer((jar) => jar.get("__proto__"), "a=1")).read).toBeNull();
  });
});
