import { createHash, timingSafeEqual } from "node:crypto";
import { schema } from "@app/db";
import {
  fillMessage,
  formatGermanDateTime,
  GATED_PACKAGE_COUPLE_THERAPY_ID,
  GATED_PACKAGE_DEATH_CONGRESS_ID,
  MSG,
  REFUSALS,
} from "@app/shared";
import { and, eq } from "drizzle-orm";
import { AppError, refuse } from "../../lib/app-error";
import { hit, LIMITS } from "../../lib/rate-limit";
import type { ClientIo, ServiceDeps } from "../deps";
import { deathCongressClosedUntil } from "./packages";
import { loadViewer, type ViewerDeps } from "./viewer";

export type GatedKind = "couple-therapy" | "death-congress";

interface GatedPage {
  kind: GatedKind;
  packageId: number;
  password: string;
}

function gatedPages(env: ServiceDeps["env"]): Map<string, GatedPage> {
  return new Map([
    [
      env.GATED_PATH_COUPLE_THERAPY,
      {
        kind: "couple-therapy",
        packageId: GATED_PACKAGE_COUPLE_THERAPY_ID,
        password: env.GATED_PASSWORD_COUPLE_THERAPY,
      },
    ],
    [
      env.GATED_PATH_DEATH_CONGRESS,
      {
        kind: "death-congress",
        packageId: GATED_PACKAGE_DEATH_CONGRESS_ID,
        password: env.GATED_PASSWORD_DEATH_CONGRESS,
      },
    ],
  ]);
}

const normalise = (path: string) => (path.length > 1 ? path.replace(/\/+$/, "") : path);

function findPage(env: ServiceDeps["env"], path: string): GatedPage {
  const page = gatedPages(env).get(normalise(path));
  if (!page) {
    throw new AppError("NOT_FOUND", "no gated page at this path");
  }
  return page;
}

/**
 * Whether a path is one of the two password-gated pages. The paths live in the server's configuration only,
 * so the web app asks before it shows its not-found page.
 */
export function resolveGatedPath(env: ServiceDeps["env"], { path }: { path: string }): { kind: GatedKind } {
  return { kind: findPage(env, path).kind };
}

export interface GatedStatus {
  kind: GatedKind;
  packageId: number;
  /** the visitor may watch: go to the package page */
  unlocked: boolean;
  /** German text while the page is not open yet (death congress before its date) */
  closedNotice: string | null;
}

async function isUnlocked(ctx: ViewerDeps, userId: number, packageId: number): Promise<boolean> {
  const { packageUnlocks, congressPackageOrders } = schema;
  const [unlock] = await ctx.db
    .select({ id: packageUnlocks.userId })
    .from(packageUnlocks)
    .where(and(eq(packageUnlocks.userId, userId), eq(packageUnlocks.congressPackageId, packageId)));
  if (unlock) {
    return true;
  }
  const [paid] = await ctx.db
    .select({ id: congressPackageOrders.id })
    .from(congressPackageOrders)
    .where(
      and(
        eq(congressPackageOrders.userId, userId),
        eq(congressPackageOrders.congressPackageId, packageId),
        eq(congressPackageOrders.status, "paid"),
      ),
    )
    .limit(1);
  return Boolean(paid);
}

const closedNotice = (until: Date) =>
  fillMessage(MSG.gatedNotActiveYet, { date: `${formatGermanDateTime(until)} Uhr` });

export async function gatedStatus(
  ctx: ViewerDeps,
  { userId, path }: { userId: number; path: string },
): Promise<GatedStatus> {
  const page = findPage(ctx.env, path);
  const viewer = await loadViewer(ctx, userId);
  const closedUntil = deathCongressClosedUntil(ctx, viewer, page.packageId);
  return {
    kind: page.kind,
    packageId: page.packageId,
    unlocked: closedUntil === null && (await isUnlocked(ctx, viewer.id, page.packageId)),
    closedNotice: closedUntil ? closedNotice(closedUntil) : null,
  };
}

/** Compares in constant time (hashing first makes the lengths equal). */
function samePassword(given: string, expected: string): boolean {
  const a = createHash("sha256").update(given, "utf8").digest();
  const b = createHash("sha256").update(expected, "utf8").digest();
  return timingSafeEqual(a, b);
}

/**
 * Checks the package password (exact, case-sensitive) and, when right, unlocks the package for this account
 * so its normal package page shows the videos from now on.
 */
export async function unlockGated(
  ctx: ViewerDeps & Pick<ClientIo, "ip">,
  { userId, path, password }: { userId: number; path: string; password: string },
): Promise<{ packageId: number }> {
  const page = findPage(ctx.env, path);
  const viewer = await loadViewer(ctx, userId);
  await hit(
    ctx,
    [`gated:ip:${ctx.ip}`, LIMITS.gatedPerIp],
    [`gated:account:${viewer.id}`, LIMITS.gatedPerAccount],
  );
  const closedUntil = deathCongressClosedUntil(ctx, viewer, page.packageId);
  if (closedUntil) {
    throw new AppError(
      "FORBIDDEN",
      "gated page not open yet",
      closedNotice(closedUntil),
      MSG.defaultErrorTitle,
    );
  }
  if (!samePassword(password, page.password)) {
    throw refuse(REFUSALS.wrongPackagePassword, "wrong package password", "wrong-password");
  }
  await ctx.db
    .insert(schema.packageUnlocks)
    .values({ userId: viewer.id, congressPackageId: page.packageId })
    .onConflictDoNothing();
  return { packageId: page.packageId };
}
