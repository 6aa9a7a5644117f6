import { existsSync } from "node:fs";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { createServer, request } from "node:http";
import { freePort } from "@app/db";
import { type Bundle, expectThat, Failure, isReady, type Started, sleep, track } from "./processes";

/** A reverse proxy in front of the bundle that appends the client's address to X-Forwarded-For. */
export interface AppendingProxy {
  url: string;
  /** what it is: nginx, or the Node stand-in when nginx is not installed */
  kind: string;
  tail(): string;
  stop(): Promise<void>;
}

/** Debian's nginx, as `.ci/run` installs it */
const NGINX = "/usr/sbin/nginx";

/**
 * nginx as an operator puts it in front (`.ci/run` installs Debian's): `$proxy_add_x_forwarded_for` keeps
 * what the client wrote and appends the address the connection came from. Without nginx, a Node proxy
 * that appends exactly so stands in (and says so in the step's line).
 */
export async function startAppendingProxy(bundle: Bundle, dir: string): Promise<AppendingProxy> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  if (!existsSync(NGINX)) {
    return startNodeProxy(bundle, port, url);
  }
  await mkdir(dir, { recursive: true });
  // nginx's workers run as another user where the master is root: they read and write its temp folders
  await chmod(dir, 0o777);
  const conf = `${dir}/nginx.conf`;
  await writeFile(
    conf,
    `worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
daemon off;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass ${bundle.url};
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto https;
    }
  }
}
`,
  );
  const nginx: Started = track(NGINX, ["-e", `${dir}/error.log`, "-p", dir, "-c", conf], process.env);
  await waitServing(url, nginx);
  return {
    url,
    kind: "nginx",
    tail: () => nginx.tail(),
    stop: async () => {
      nginx.child.kill("SIGQUIT");
      await Promise.race([nginx.exited, sleep(5_000)]);
    },
  };
}

async function waitServing(url: string, proxy: Started): Promise<void> {
  const until = Date.now() + 10_000;
  while (!(await isReady({ url } as Bundle))) {
    expectThat(
      Date.now() < until,
      `the proxy at ${url} to answer /readyz within 10 s`,
      "it did not",
      proxy.tail(),
    );
    await sleep(100);
  }
}

/** The stand-in: X-Forwarded-For becomes "<what the client sent>, <the connection's address>", as nginx does. */
async function startNodeProxy(bundle: Bundle, port: number, url: string): Promise<AppendingProxy> {
  const server = createServer((req, res) => {
    const given = req.headers["x-forwarded-for"];
    const peer = req.socket.remoteAddress ?? "";
    const upstream = request(
      `${bundle.url}${req.url ?? "/"}`,
      {
        method: req.method,
        headers: {
          ...req.headers,
          "x-forwarded-for": given ? `${given}, ${peer}` : peer,
          "x-forwarded-proto": "https",
        },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((done) => server.listen(port, "127.0.0.1", done));
  return {
    url,
    kind: `a Node proxy appending like nginx (no nginx at ${NGINX})`,
    tail: () => "",
    stop: () => new Promise((done) => server.close(() => done())),
  };
}

/**
 * ADR 0090: a client that writes its own X-Forwarded-For entries (a new one for every request) stays one
 * client behind the proxy. Ten wrong passwords for one address, the eleventh is refused with 429.
 */
export async function checkSpoofedForwardedFor(proxy: AppendingProxy, bundle: Bundle): Promise<void> {
  const email = `spoof.${Date.now()}@example.com`;
  const statuses: number[] = [];
  for (let i = 1; i <= 11; i++) {
    try {
      const res = await fetch(`${proxy.url}/api/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": `198.51.100.${i}` },
        body: JSON.stringify({ email, password: `falsch-${i}` }),
        signal: AbortSignal.timeout(10_000),
      });
      statuses.push(res.status);
    } catch (error) {
      throw new Failure(
        `expected POST /api/auth/login through ${proxy.kind} to answer\n  but it failed: ${String(error)}`,
        proxy.tail(),
      );
    }
  }
  const expected = [...Array<number>(10).fill(401), 429];
  expectThat(
    statuses.join() === expected.join(),
    "11 wrong passwords with X-Forwarded-For: 198.51.100.1 … .11 through the proxy to answer 10 × 401, then 429",
    `they answered ${statuses.join(", ")}`,
    bundle.tail(),
  );
}
