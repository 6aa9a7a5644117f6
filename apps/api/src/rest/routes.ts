import type { RestRoute } from "./adapter";
import { adminRestRoutes } from "./admin";
import { authRestRoutes } from "./auth";
import { exportRestRoutes } from "./exports";
import { fileRestRoutes } from "./files";
import { orderRestRoutes } from "./orders";
import { visitorRestRoutes } from "./visitor";

/** Every documented REST path; each domain adds its list here. */
export const restRoutes: RestRoute[] = [
  { method: "GET", url: "/account/profile", role: "user", handler: (caller) => caller.account.getProfile() },
  ...authRestRoutes,
  ...visitorRestRoutes,
  ...fileRestRoutes,
  ...orderRestRoutes,
  ...adminRestRoutes,
  ...exportRestRoutes,
];
