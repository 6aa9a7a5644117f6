import { mkdir, rm } from "node:fs/promises";
import { resolve } from "node:path";
import { expect, type Page } from "@playwright/test";
import {
  confirmDialog,
  dialogsSeen,
  linkIn,
  login,
  test,
  uniqueEmail,
  waitForMail,
  watchDialogs,
} from "../e2e/fixtures";
import {
  type Command,
  type ProcessInfo,
  portIsFree,
  pressCtrlC,
  processTree,
  startCommand,
  stillRunning,
} from "./processes";

/**
 * The README's first command, run as a newcomer runs it: `pnpm dev` in the checkout, then a first visit
 * (register, confirm from the mail, log in, sign up, buy), Ctrl-C, and a second start on the same data.
 * Only what `pnpm dev` documents is set: its ports and its data folder (a throwaway one).
 */
const root = resolve(import.meta.dirname, "../../..");
const dataDir = `.data/test-dev-${process.pid}`;
const ports = {
  PORT: Number(process.env.DEV_TEST_PORT),
  WEB_PORT: Number(process.env.DEV_TEST_WEB_PORT),
  MAIL_WEB_PORT: Number(process.env.E2E_MAIL_PORT),
  MAIL_SMTP_PORT: Number(process.env.DEV_TEST_SMTP_PORT),
  SIMULATOR_PORT: Number(process.env.DEV_TEST_SIMULATOR_PORT),
};
const web = `http://localhost:${ports.WEB_PORT}`;
const READY = "Kongress-Plattform läuft";
const SEEDING = "Leere Datenbank";

/** The environment of the shell the test runs in, without what the test runners add. */
function shellEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) =>
        !/^(PLAYWRIGHT|TEST_|E2E_|DEV_TEST_|VITEST|TURBO_|npm_)/.test(key) &&
        !["NODE_ENV", "DATABASE_URL", "NODE_OPTIONS"].includes(key),
    ),
  );
  return {
    ...env,
    DEV_DATA_DIR: dataDir,
    ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
  };
}

let running: Command | undefined;
/** every process of the running `pnpm dev` seen so far, for the clean-up after a failure */
let seen: ProcessInfo[] = [];

async function startPnpmDev(): Promise<Command> {
  const command = startCommand("pnpm", ["dev"], root, shellEnv());
  running = command;
  const outcome = await Promise.race([
    expect
      .poll(() => command.output().includes(READY), { timeout: 180_000, intervals: [500] })
      .toBe(true)
      .then(() => "ready"),
    command.exited.then((code) => `exited (${code})`),
  ]).catch((error: unknown) => `not ready: ${String(error)}`);
  expect(outcome, `pnpm dev did not print "${READY}". Its output:\n${command.output().slice(-4000)}`).toBe(
    "ready",
  );
  seen = processTree(command.child.pid ?? 0);
  return command;
}

/** Ctrl-C, then every process `pnpm dev` started must end and every port be free within 10 s. */
async function stopWithCtrlC(command: Command): Promise<void> {
  const pid = command.child.pid ?? 0;
  const tree = processTree(pid);
  seen = tree;
  const roles = ["postgres", "maildev", "src/server.ts", "vite", "--orchestrator"];
  for (const role of roles) {
    expect(
      tree.some((p) => p.command.includes(role)),
      `no process "${role}" among pnpm dev's: ${tree.map((p) => p.command).join("\n")}`,
    ).toBe(true);
  }
  const postgresPort = Number(
    / -p (\d+)/.exec(tree.find((p) => p.command.includes("postgres -D"))?.command ?? "")?.[1],
  );
  const started = Date.now();
  pressCtrlC(command);
  await expect
    .poll(() => stillRunning(tree).map((p) => p.command), {
      timeout: 10_000,
      intervals: [200],
      message: "processes still running 10 s after Ctrl-C",
    })
    .toEqual([]);
  const allPorts = { ...ports, postgres: postgresPort };
  await expect
    .poll(
      async () => {
        const taken: string[] = [];
        for (const [name, port] of Object.entries(allPorts)) {
          if (!(await portIsFree(port))) {
            taken.push(`${name}=${port}`);
          }
        }
        return taken;
      },
      {
        timeout: Math.max(1000, 10_000 - (Date.now() - started)),
        intervals: [200],
        message: "ports still taken",
      },
    )
    .toEqual([]);
  running = undefined;
}

async function loginAs(page: Page, email: string, password: string): Promise<void> {
  await page.goto(`${web}/login`);
  await login(page, email, password);
  await expect(page.getByRole("heading", { level: 1, name: /^Hallo / })).toBeVisible();
}

test.beforeAll(async () => {
  await rm(resolve(root, dataDir), { recursive: true, force: true });
  await mkdir(resolve(root, dataDir), { recursive: true });
});

test.afterAll(async () => {
  if (running?.child.pid) {
    // a failed test: stop what is left, hard if Ctrl-C does not do it (also what outlived its parents)
    const tree = [...seen, ...processTree(running.child.pid)];
    if (running.child.exitCode === null && running.child.signalCode === null) {
      pressCtrlC(running);
      await Promise.race([running.exited, new Promise((r) => setTimeout(r, 15_000))]);
    }
    for (const p of stillRunning(tree)) {
      process.kill(p.pid, "SIGKILL");
    }
  }
  await rm(resolve(root, dataDir), { recursive: true, force: true });
});

test("pnpm dev: a newcomer's first visit, Ctrl-C, and a second start with the data kept", async ({
  browser,
  page,
  request,
}) => {
  const email = uniqueEmail("pnpm-dev");
  const password = "sicheres-Passwort-1";
  let dev = await startPnpmDev();

  await test.step("first start seeds the demo data and prints the URLs and demo logins", async () => {
    const output = dev.output();
    expect(output).toContain(SEEDING);
    for (const line of [
      `http://localhost:${ports.WEB_PORT}`,
      "admin@example.com",
      "teilnehmer@example.com",
    ]) {
      expect(output).toContain(line);
    }
  });

  await test.step("the web app's /login opens through Vite", async () => {
    await page.goto(`${web}/login`);
    await expect(page.getByRole("region", { name: "Ich habe bereits ein Konto" })).toBeVisible();
    await expect(page.getByRole("region", { name: "Neu hier? Registrieren" })).toBeVisible();
  });

  await test.step("a gated page says 'Nicht angemeldet!' once in React's development mode, then opens login", async () => {
    const gated = "/paartherapie-aufzeichnung-demo";
    await watchDialogs(page);
    await page.goto(`${web}${gated}`);
    await confirmDialog(page, "Nicht angemeldet!");
    await expect(page).toHaveURL(`${web}/login?redirect=${encodeURIComponent(gated)}`);
    await expect(page.getByRole("region", { name: "Ich habe bereits ein Konto" })).toBeVisible();
    await page.waitForLoadState("networkidle");
    expect((await dialogsSeen(page)).filter((text) => text.includes("Nicht angemeldet!"))).toHaveLength(1);
  });

  await test.step("register through the web port's /api; the confirmation mail is in MailDev within 5 s", async () => {
    const user = {
      firstname: "Erika",
      lastname: "Neu",
      email,
      password,
      dataProtection: true,
      newsletter: false,
    };
    const registered = await request.post(`${web}/api/register/`, {
      multipart: { user: JSON.stringify(user) },
    });
    expect(registered.status(), await registered.text()).toBe(201);
    const sent = Date.now();
    const mail = await waitForMail(email, "Bitte bestätigen Sie Ihre E-Mail-Adresse").catch(
      (error: unknown) => {
        throw new Error(
          `no confirmation mail in MailDev: ${String(error)}\nAPI log:\n${dev
            .output()
            .split("\n")
            .filter((l) => l.startsWith("[api]"))
            .slice(-40)
            .join("\n")}`,
        );
      },
    );
    expect(Date.now() - sent, "confirmation mail took longer than 5 s").toBeLessThanOrEqual(5_000);
    await page.goto(`${web}${linkIn(mail, "/confirm-mail/")}`);
    await confirmDialog(page, "E-Mail-Adresse bestätigt");
  });

  await test.step("log in and see the overview", async () => {
    await loginAs(page, email, password);
  });

  await test.step("sign up for a free event", async () => {
    await page
      .getByRole("article", { name: "Eintägiger Fachtag Kinderschutz" })
      .getByRole("link", { name: "Teilnehmen" })
      .click();
    await expect(page.getByRole("heading", { name: "Anmeldung bestätigt" })).toBeVisible();
    await page.getByRole("main").getByRole("link", { name: "Zur Übersicht" }).click();
    await expect(
      page
        .getByRole("article", { name: "Eintägiger Fachtag Kinderschutz" })
        .getByRole("button", { name: "Teilnahme stornieren" }),
    ).toBeVisible();
  });

  await test.step("buy a package through the checkout simulator and see it as bought", async () => {
    const card = page.getByRole("region", { name: "Kongresspakete" }).getByRole("article", {
      name: "Kongresspaket Beziehung & Bindung",
    });
    await card.getByRole("link", { name: "Jetzt kaufen" }).click();
    await expect(page).toHaveURL(new RegExp(`^http://localhost:${ports.SIMULATOR_PORT}/`));
    await page.getByRole("button", { name: "Bezahlen" }).click();
    await confirmDialog(page, "Vielen Dank für Ihren Kauf!");
    await expect(card.getByText("Status: bezahlt")).toBeVisible();
  });

  await test.step("Ctrl-C ends every process and frees every port within 10 s", async () => {
    // The open page would reload by itself once Vite answers again (its client polls for the server) and
    // renew its session with the refresh cookie: a renewal that answers after the cookies were cleared
    // sets the cookie again, and the second visit would start signed in. The page closes, as a
    // visitor's tab does, and the second visit opens in a browser of its own.
    await page.close();
    await stopWithCtrlC(dev);
  });

  dev = await startPnpmDev();

  await test.step("the second start keeps the data: no new seed, the new visitor and the purchase are there", async () => {
    expect(dev.output()).not.toContain(SEEDING);
    const context = await browser.newContext({ locale: "de-DE", timezoneId: "Europe/Berlin" });
    const second = await context.newPage();
    await loginAs(second, email, password);
    await expect(
      second
        .getByRole("region", { name: "Kongresspakete" })
        .getByRole("article", { name: "Kongresspaket Beziehung & Bindung" })
        .getByText("Status: bezahlt"),
    ).toBeVisible();
    await context.close();
  });

  await test.step("and stops cleanly again", async () => {
    await stopWithCtrlC(dev);
  });
});
