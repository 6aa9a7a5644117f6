import { initTRPC } from "@trpc/server";
import superjson from "superjson";
import { AppError, toErrorResponse, toTRPCError } from "../lib/app-error";
import type { Context } from "./context";

const t = initTRPC.context<Context>().create({
  transformer: superjson,
  errorFormatter({ shape, error }) {
    // every client reads {title, detail}; stack traces never leave the server
    const { body, reason } = toErrorResponse(error);
    return {
      ...shape,
      message: body.detail,
      data: { ...shape.data, stack: undefined, title: body.title, detail: body.detail, reason },
    };
  },
});

/** Turns an expected AppError thrown anywhere below into the matching tRPC error. */
const appErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.cause instanceof AppError) {
    throw toTRPCError(result.error.cause);
  }
  return result;
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

export const publicProcedure = t.procedure.use(appErrors);

export const userProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.user) {
    throw new AppError("UNAUTHORIZED", "no valid access token");
  }
  return next({ ctx: { ...ctx, user: ctx.user } });
});

export const adminProcedure = userProcedure.use(({ ctx, next }) => {
  if (!ctx.user.roles.includes("ROLE_ADMIN")) {
    throw new AppError("FORBIDDEN", "ROLE_ADMIN required");
  }
  return next({ ctx });
});
