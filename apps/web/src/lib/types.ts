import type { AppRouter } from "@app/api/router";
import type { inferRouterOutputs } from "@trpc/server";

export type RouterOutputs = inferRouterOutputs<AppRouter>;
export type EventView = RouterOutputs["congress"]["overview"]["events"][number];
export type PackageView = RouterOutputs["congress"]["overview"]["packages"][number];
export type PlayableDay = RouterOutputs["congress"]["content"]["days"][number];
