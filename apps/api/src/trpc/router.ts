import { accountRouter, legalRouter } from "../routers/account";
import { adminRouter } from "../routers/admin";
import { attendanceRouter } from "../routers/attendance";
import { authRouter } from "../routers/auth";
import { certificateRouter } from "../routers/certificates";
import {
  checkoutRouter,
  congressRouter,
  gatedRouter,
  packagesRouter,
  participationRouter,
  videoRouter,
} from "../routers/congress";
import { fortbildungRouter } from "../routers/fortbildung";
import { learningChecksRouter } from "../routers/learning-checks";
import { ordersRouter } from "../routers/orders";
import { systemRouter } from "../routers/system";
import { createCallerFactory, router } from "./init";

export const appRouter = router({
  account: accountRouter,
  admin: adminRouter,
  attendance: attendanceRouter,
  auth: authRouter,
  certificate: certificateRouter,
  checkout: checkoutRouter,
  congress: congressRouter,
  fortbildung: fortbildungRouter,
  gated: gatedRouter,
  learningChecks: learningChecksRouter,
  legal: legalRouter,
  orders: ordersRouter,
  packages: packagesRouter,
  participation: participationRouter,
  video: videoRouter,
  system: systemRouter,
});

export type AppRouter = typeof appRouter;

export const createCaller = createCallerFactory(appRouter);
