// Fastify type augmentations must be visible wherever AppRouter is typed (also in the web app).
import type {} from "@fastify/cookie";
import { accountRouter } from "../routers/account";
import { systemRouter } from "../routers/system";
import { createCallerFactory, router } from "./init";

export const appRouter = router({
  account: accountRouter,
  system: systemRouter,
});

export type AppRouter = typeof appRouter;

export const createCaller = createCallerFactory(appRouter);
