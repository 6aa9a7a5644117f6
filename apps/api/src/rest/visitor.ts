import type { RestRoute } from "./adapter";
import { isAdmin } from "./admin";
import { specCongress, specCongresses, specCongressOf } from "./congresses";
import { readForm } from "./form";

/** The visitor-area paths of spec section 7 (events, participation, packages). */
export const visitorRestRoutes: RestRoute[] = [
  {
    // admins get every event (their table); visitors the events of their overview
    method: "GET",
    url: "/congress",
    role: "user",
    handler: async (caller, _req, _reply, ctx) =>
      isAdmin(ctx)
        ? (await caller.admin.congresses.list()).map(specCongress)
        : specCongresses(caller, (await caller.congress.getOverview()).congresses),
  },
  {
    method: "GET",
    url: "/congress/:id",
    role: "user",
    handler: async (caller, req) =>
      specCongressOf(caller, await caller.congress.get({ congressId: req.params.id })),
  },
  {
    method: "POST",
    url: "/participation",
    role: "user",
    status: 201,
    handler: async (caller, req) => {
      const { fields } = await readForm(req);
      return caller.participation.create({ congressId: fields.congressId });
    },
  },
  {
    method: "DELETE",
    url: "/participation/:id",
    role: "user",
    handler: (caller, req) => caller.participation.cancel({ participationId: req.params.id }),
  },
  {
    method: "GET",
    url: "/congress-package/is-user-qualified/:id",
    role: "user",
    handler: (caller, req) => caller.packages.getPage({ packageId: req.params.id }),
  },
  {
    method: "GET",
    url: "/congress-package/:id",
    role: "user",
    handler: (caller, req) => caller.packages.get({ packageId: req.params.id }),
  },
  {
    // admins get every package (their table); visitors the packages of their overview, as the events
    method: "GET",
    url: "/congress-package",
    role: "user",
    handler: async (caller, _req, _reply, ctx) =>
      isAdmin(ctx) ? caller.admin.packages.list() : (await caller.congress.getOverview()).packages,
  },
];
