// Fastify type augmentations must be visible wherever AppRouter is typed (also in the web app).
import type {} from "@fastify/cookie";
import { accountRouter } from "../routers/account";
import { authRouter } from "../routers/auth";
import { systemRouter } from "../routers/system";
import { createCallerFactory, router } from "./init";

export const appRouter = router({
  account: accountRouter,
  auth: authRouter,
  system: systemRouter,
});

export type AppRouter = typeof appRouter;

export const createCaller = createCallerFactory(appRouter);
