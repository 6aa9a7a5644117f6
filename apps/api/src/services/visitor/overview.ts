import type { Db } from "@app/db";
import { type EventView, overviewEvents } from "./events";
import { overviewPackages, type PackageView } from "./packages";
import { loadViewer, type ViewerCtx } from "./viewer";

export interface Overview {
  user: { firstname: string; lastname: string };
  events: EventView[];
  packages: PackageView[];
}

/** Everything the overview shows, for one request: the greeting, up to 6 events and up to 8 packages. */
export async function overview(ctx: ViewerCtx & { db: Db }): Promise<Overview> {
  const viewer = await loadViewer(ctx);
  const [events, packages] = await Promise.all([
    overviewEvents(ctx.db, viewer),
    overviewPackages(ctx.db, viewer),
  ]);
  return { user: { firstname: viewer.firstname, lastname: viewer.lastname }, events, packages };
}
