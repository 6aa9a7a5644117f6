import type { AppRouter } from "@app/api/router";
import type { inferRouterOutputs } from "@trpc/server";

export type RouterOutputs = inferRouterOutputs<AppRouter>;
export type CongressView = RouterOutputs["congress"]["getOverview"]["congresses"][number];
export type PackageView = RouterOutputs["congress"]["getOverview"]["packages"][number];
export type PlayableDay = RouterOutputs["congress"]["getContent"]["days"][number];
