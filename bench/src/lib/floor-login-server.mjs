// The least a login can cost on Node, the reference for the API's login CPU (docs/performance.md, "Login
// budget"): node:http without a framework, the JSON body, the account read by one named statement, argon2id's
// verify with the API's parameters and at most one hash per core, a refresh token written by a second named
// statement, an HMAC-signed access token, two cookies and a JSON answer. No rate limits, no validation, no
// device check: what the API does besides these is its own cost.
// Arguments: the database URL and the port; sends "ready" to its parent once it listens.
import { createHmac, hash, randomBytes, randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { availableParallelism } from "node:os";
import { verify } from "@node-rs/argon2";
import pg from "pg";

const [databaseUrl, port] = process.argv.slice(2);
const pool = new pg.Pool({ connectionString: databaseUrl, max: 8 });
const key = randomBytes(32);
const cores = availableParallelism();
let hashing = 0;
const waiting = [];

// at most one hash per core, first come first served: `inTurn` of @app/db/password, copied because this
// server runs as plain JavaScript, without our TypeScript build
async function inTurn(work) {
  if (hashing >= cores) {
    await new Promise((start) => waiting.push(start));
  } else {
    hashing += 1;
  }
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) {
      next();
    } else {
      hashing -= 1;
    }
  }
}

const cookie = (name, value, maxAge) =>
  `${name}=${value}; Max-Age=${maxAge}; Path=/; HttpOnly; SameSite=Strict`;

async function login(body, res) {
  const { email, password } = JSON.parse(body);
  const { rows } = await pool.query({
    name: "floor_user",
    text: "SELECT row_to_json(u) AS user FROM users u WHERE lower(email) = lower($1)",
    values: [email],
  });
  const user = rows[0]?.user;
  if (!user || !(await inTurn(() => verify(user.password_hash, password)))) {
    res.writeHead(401, { "content-type": "application/json" }).end("{}");
    return;
  }
  const refreshToken = randomBytes(32).toString("base64url");
  await pool.query({
    name: "floor_refresh_token",
    text: "INSERT INTO refresh_tokens (user_id, family_id, token_hash, expires_at) VALUES ($1, $2, $3, $4)",
    values: [
      user.id,
      randomUUID(),
      hash("sha256", refreshToken, "hex"),
      new Date(Date.now() + 2_592_000_000),
    ],
  });
  const expiresAt = Date.now() + 900_000;
  const payload = Buffer.from(
    JSON.stringify({ sub: String(user.id), roles: user.roles, exp: expiresAt / 1000 }),
  ).toString("base64url");
  const signed = `eyJhbGciOiJIUzI1NiJ9.${payload}`;
  const token = `${signed}.${createHmac("sha256", key).update(signed).digest("base64url")}`;
  res.writeHead(200, {
    "content-type": "application/json",
    "set-cookie": [
      cookie("refresh_token", refreshToken, 2_592_000),
      cookie("known_device", `${randomBytes(16).toString("base64url")}.${user.id}`, 31_536_000),
    ],
  });
  res.end(
    JSON.stringify({
      token,
      refreshToken,
      expiresAt,
      user: {
        id: user.id,
        email: user.email,
        firstName: user.first_name,
        lastName: user.last_name,
        roles: user.roles,
      },
    }),
  );
}

createServer((req, res) => {
  let body = "";
  req.setEncoding("utf8");
  req.on("data", (chunk) => {
    body += chunk;
  });
  req.on("end", () => {
    login(body, res).catch((error) => {
      res.writeHead(500).end(String(error));
    });
  });
}).listen(Number(port), "127.0.0.1", () => process.send?.("ready"));
