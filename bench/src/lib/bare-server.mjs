// A bare Fastify route answering a fixed JSON body (read from the file given as first argument), serialised
// on every request like our API does: the upper limit of this machine for an answer of that size.
import { readFileSync } from "node:fs";
import Fastify from "fastify";

const body = JSON.parse(readFileSync(process.argv[2], "utf8"));
const app = Fastify({ logger: false });
app.get("/overview", async () => body);
await app.listen({ port: Number(process.argv[3]), host: "127.0.0.1" });
process.send?.("ready");
