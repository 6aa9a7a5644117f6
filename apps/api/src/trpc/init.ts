import { initTRPC, TRPCError } from "@trpc/server";
import superjson from "superjson";
import { AppError, fieldErrorsOf, toErrorResponse, toTRPCError } from "../lib/app-error";
import { dataException } from "../lib/db-errors";
import type { Context } from "./context";
import { confirmedAdmin, signedInUser } from "./roles";

const t = initTRPC.context<Context>().create({
  transformer: superjson,
  errorFormatter({ shape, error }) {
    // every client reads {title, detail}; forms also read the refused input's messages by field;
    // stack traces never leave the server
    const { body, reason, links } = toErrorResponse(error);
    const fieldErrors = fieldErrorsOf(error);
    return {
      ...shape,
      message: body.detail,
      data: {
        ...shape.data,
        stack: undefined,
        title: body.title,
        detail: body.detail,
        reason,
        links,
        fieldErrors,
      },
    };
  },
});

/**
 * Turns an expected AppError thrown anywhere below into the matching tRPC error, and a value PostgreSQL
 * refused as data (see `dataException`) into BAD_REQUEST instead of a 500.
 */
const appErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.cause instanceof AppError) {
    throw toTRPCError(result.error.cause);
  }
  if (!result.ok && dataException(result.error.cause)) {
    throw new TRPCError({
      code: "BAD_REQUEST",
      message: "value refused by the database",
      cause: result.error.cause,
    });
  }
  return result;
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

export const publicProcedure = t.procedure.use(appErrors);

/** Signed-in users (a session that still stands, `trpc/roles.ts`). */
export const userProcedure = publicProcedure.use(({ ctx, next }) =>
  next({ ctx: { user: signedInUser(ctx) } }),
);

/** Admins only, with two-factor confirmed where it is required (`trpc/roles.ts`). */
export const adminProcedure = userProcedure.use(async ({ ctx, next }) => {
  await confirmedAdmin(ctx);
  return next({ ctx });
});
