import type { Db } from "@app/db";
import { berlinDate, chooseOverviewCongresses, OVERVIEW_MAX_PACKAGES } from "@app/shared";
import { AppError } from "../../lib/app-error";
import { type CongressView, toCongressView } from "./congresses";
import { type OverviewLists, overviewLists } from "./overview-lists";
import { type PackageView, toPackageView } from "./packages";
import { toViewer, type Viewer, type ViewerDeps } from "./viewer";

export interface Overview {
  user: { firstname: string; lastname: string };
  congresses: CongressView[];
  packages: PackageView[];
  /** events of the list with recorded attendance (their confirmation can be downloaded) */
  attended: number[];
}

/**
 * The visitor and everything of theirs the overview needs, in one round trip (a prepared statement). Its
 * only parameter is the user id, so PostgreSQL soon plans it once per connection (a list of event ids as a
 * second parameter made it plan the statement anew on every call); the lists are matched to the shown
 * events here.
 */
const VIEWER_STATE = {
  name: "overview_viewer_state",
  text: `SELECT u.id, u.email, u.firstname, u.lastname, u.digistore_hash AS "digistoreHash", u.active,
    coalesce((SELECT json_agg(json_build_array(p.congress_id, p.id)) FROM participations p
      WHERE p.user_id = u.id), '[]') AS participations,
    coalesce((SELECT json_agg(DISTINCT t.congress_id) FROM congress_ticket_orders t
      WHERE t.user_id = u.id AND t.status = 'paid'), '[]') AS tickets,
    coalesce((SELECT json_agg(json_build_array(o.congress_package_id, o.status) ORDER BY o.created_at DESC, o.id DESC)
      FROM congress_package_orders o WHERE o.user_id = u.id), '[]') AS orders,
    coalesce((SELECT json_agg(k.congress_package_id) FROM package_unlocks k WHERE k.user_id = u.id), '[]') AS unlocks,
    coalesce((SELECT json_agg(DISTINCT a.congress_id) FROM attendances a WHERE a.user_id = u.id), '[]') AS attended
  FROM users u WHERE u.id = $1`,
};

export interface ViewerState {
  id: number;
  email: string;
  firstname: string;
  lastname: string;
  digistoreHash: string;
  active: boolean;
  /** all of the visitor's, also of events the overview does not show */
  participations: [congressId: number, participationId: number][];
  tickets: number[];
  /** newest first */
  orders: [packageId: number, status: string][];
  unlocks: number[];
  attended: number[];
}

/** The overview's viewer state of `userId`, or null when the account does not exist. */
export async function readViewerState(db: Db, userId: number): Promise<ViewerState | null> {
  const { rows } = await db.$client.query<ViewerState>({ ...VIEWER_STATE, values: [userId] });
  return rows[0] ?? null;
}

/**
 * The visitor's events: running ones and those they take part in first, never pushed out by coming ones
 * (ADR 0084).
 */
function congressesOf(entry: OverviewLists, state: ViewerState, viewer: Viewer): CongressView[] {
  const participation = new Map(state.participations);
  const tickets = new Set(state.tickets);
  const takesPart = (id: number) => participation.has(id) || tickets.has(id);
  return chooseOverviewCongresses(entry.congresses, entry.today, takesPart).map((congress) =>
    toCongressView(
      {
        congress,
        participationId: participation.get(congress.id) ?? null,
        ticketBought: tickets.has(congress.id),
      },
      entry.today,
      viewer,
    ),
  );
}

/**
 * The visitor's packages (ordered or unlocked) first, then the newest visible ones; at most 8. Only the
 * chosen packages are looked at closely: the catalogue may hold thousands.
 */
function packagesOf(entry: OverviewLists, state: ViewerState): PackageView[] {
  const ordersOf = new Map<number, string[]>();
  for (const [packageId, status] of state.orders) {
    ordersOf.set(packageId, [...(ordersOf.get(packageId) ?? []), status]);
  }
  const unlocked = new Set(state.unlocks);
  const owned = (id: number) => ordersOf.has(id) || unlocked.has(id);
  const chosen = entry.packages.filter((row) => owned(row.pkg.id)).slice(0, OVERVIEW_MAX_PACKAGES);
  for (const row of entry.packages) {
    if (chosen.length >= OVERVIEW_MAX_PACKAGES) {
      break;
    }
    if (row.congressVisible && !owned(row.pkg.id)) {
      chosen.push(row);
    }
  }
  return chosen.map((row) => {
    const statuses = ordersOf.get(row.pkg.id) ?? [];
    const view = {
      ...row,
      orderCount: statuses.length,
      paid: statuses.includes("paid"),
      lastStatus: statuses[0] ?? null,
      unlocked: unlocked.has(row.pkg.id),
    };
    return toPackageView(view, entry.today);
  });
}

/**
 * Everything the overview shows, for one request: the greeting, up to 6 events and up to 8 packages. The
 * event and package lists are shared by all visitors (cached, see overview-lists.ts); the visitor's own state
 * is one query. A deleted or deactivated account is refused like in `loadViewer`.
 */
export async function overview(ctx: ViewerDeps, userId: number): Promise<Overview> {
  const entry = await overviewLists(ctx.db, berlinDate(ctx.clock.now()), ctx.env.CATALOGUE_CACHE_MS);
  const state = await readViewerState(ctx.db, userId);
  if (!state?.active) {
    throw new AppError("UNAUTHORIZED", `user ${userId} missing or inactive`);
  }
  const viewer = toViewer(state, ctx.env);
  const congresses = congressesOf(entry, state, viewer);
  return {
    user: { firstname: viewer.firstname, lastname: viewer.lastname },
    congresses,
    packages: packagesOf(entry, state),
    attended: state.attended.filter((id) => congresses.some((e) => e.id === id)),
  };
}
