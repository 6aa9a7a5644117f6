import { publicProcedure, router } from "../trpc/init";

export const systemRouter = router({
  /** Liveness for clients that only speak tRPC; `/healthz` and `/readyz` are the operational probes. */
  ping: publicProcedure.query(({ ctx }) => ({ ok: true as const, time: ctx.clock.now() })),
});
