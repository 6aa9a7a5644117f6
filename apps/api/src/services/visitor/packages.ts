import { type DbOrTx, schema } from "@app/db";
import {
  berlinDate,
  fillMessage,
  formatGermanDate,
  GATED_PACKAGE_DEATH_CONGRESS_ID,
  type IsoDate,
  linkTarget,
  MSG,
  REFUSALS,
} from "@app/shared";
import { eq, sql } from "drizzle-orm";
import { refuse } from "../../lib/app-error";
import type { Clock, ServiceDeps } from "../deps";
import { type PlayableDay, playableDays } from "./congresses";
import { loadViewer, type Viewer, type ViewerDeps } from "./viewer";

const { congressPackages, congresses, congressPackageOrders, packageUnlocks } = schema;

export interface PackageView {
  id: number;
  name: string;
  description: string;
  picture: string | null;
  congress: { id: number; title: string };
  externalId: number;
  availabilityDate: IsoDate | null;
  /** set while availabilityDate is in the future */
  availableFrom: IsoDate | null;
  /** the visitor has an order for it (any status) */
  bought: boolean;
  /** paid: the best status of the visitor's orders; null when not bought */
  orderStatus: string | null;
  /** bought and paid, or unlocked with the package password */
  qualified: boolean;
  /** qualified and available today */
  openable: boolean;
  crosssell: { description: string; link: string | null } | null;
}

function selectPackages(db: DbOrTx, userId: number) {
  return db
    .select({
      pkg: congressPackages,
      congressTitle: congresses.title,
      congressVisible: congresses.visible,
      orderCount: sql<number>`(SELECT count(*)::int FROM ${congressPackageOrders} o WHERE o.congress_package_id = ${congressPackages.id} AND o.user_id = ${userId})`,
      paid: sql<boolean>`EXISTS (SELECT 1 FROM ${congressPackageOrders} o WHERE o.congress_package_id = ${congressPackages.id} AND o.user_id = ${userId} AND o.status = 'paid')`,
      lastStatus: sql<
        string | null
      >`(SELECT o.status FROM ${congressPackageOrders} o WHERE o.congress_package_id = ${congressPackages.id} AND o.user_id = ${userId} ORDER BY o.created_at DESC, o.id DESC LIMIT 1)`,
      unlocked: sql<boolean>`EXISTS (SELECT 1 FROM ${packageUnlocks} u WHERE u.congress_package_id = ${congressPackages.id} AND u.user_id = ${userId})`,
    })
    .from(congressPackages)
    .innerJoin(congresses, eq(congresses.id, congressPackages.congressId));
}

type PackageRow = Awaited<ReturnType<ReturnType<typeof selectPackages>["where"]>>[number];

export function toPackageView(row: PackageRow, today: IsoDate): PackageView {
  const p = row.pkg;
  const availableFrom = p.availabilityDate && p.availabilityDate > today ? p.availabilityDate : null;
  const qualified = row.paid || row.unlocked;
  const extra = p.extraParameters ?? {};
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    picture: p.picture,
    congress: { id: p.congressId, title: row.congressTitle },
    externalId: p.externalId,
    availabilityDate: p.availabilityDate,
    availableFrom,
    bought: row.orderCount > 0,
    orderStatus: row.paid ? "paid" : row.lastStatus,
    qualified,
    openable: qualified && availableFrom === null,
    // a free-form extra parameter, perhaps stored before the form's rule: linked only by that rule
    crosssell: extra.crosssellDescription
      ? { description: extra.crosssellDescription, link: linkTarget(extra.crosssellLink) }
      : null,
  };
}

/** The visitor's packages first, then the newest offered ones. */
export async function findPackage(
  ctx: { db: DbOrTx; clock: Clock },
  viewer: Viewer,
  id: number,
): Promise<PackageView> {
  const [row] = await selectPackages(ctx.db, viewer.id).where(eq(congressPackages.id, id));
  if (!row) {
    throw refuse(REFUSALS.packageNotFound, `package ${id}`);
  }
  return toPackageView(row, berlinDate(ctx.clock.now()));
}

export async function getPackage(
  ctx: ViewerDeps,
  { userId, packageId }: { userId: number; packageId: number },
): Promise<PackageView> {
  return findPackage(ctx, await loadViewer(ctx, userId), packageId);
}

/** The death-congress package opens at a fixed instant; staff may open it before. */
export function deathCongressClosedUntil(
  { env, clock }: { env: Pick<ServiceDeps["env"], "DEATH_CONGRESS_ACTIVE_FROM">; clock: Clock },
  viewer: Viewer,
  packageId: number,
): Date | null {
  if (packageId !== GATED_PACKAGE_DEATH_CONGRESS_ID || viewer.isStaff) {
    return null;
  }
  return clock.now() < env.DEATH_CONGRESS_ACTIVE_FROM ? env.DEATH_CONGRESS_ACTIVE_FROM : null;
}

export interface PackagePage {
  packageData: PackageView & { contents: PlayableDay[] };
  isQualified: boolean;
  /** why the videos are not there although qualified: the German text to show */
  notice: string | null;
}

/**
 * The package content page: the package with its congress and, only for qualified visitors on or after the
 * availability date, its videos. Everybody else receives no video address at all.
 */
export async function packagePage(
  ctx: ViewerDeps,
  { userId, packageId: id }: { userId: number; packageId: number },
): Promise<PackagePage> {
  const viewer = await loadViewer(ctx, userId);
  const view = await findPackage(ctx, viewer, id);
  const closedUntil = deathCongressClosedUntil(ctx, viewer, id);
  let notice: string | null = null;
  if (view.qualified && view.availableFrom) {
    notice = fillMessage(MSG.packageNotAvailableYet, { date: formatGermanDate(view.availableFrom) });
  } else if (view.qualified && closedUntil) {
    notice = fillMessage(MSG.gatedNotActiveYet, { date: formatGermanDate(closedUntil) });
  }
  const contents =
    view.openable && !closedUntil
      ? await playableDays(ctx.db, view.congress.id, berlinDate(ctx.clock.now()), {
          ignoreExclusiveDates: viewer.isStaff,
        })
      : [];
  return { packageData: { ...view, contents }, isQualified: view.qualified, notice };
}
