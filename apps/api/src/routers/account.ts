import { getProfile } from "../services/account";
import { router, userProcedure } from "../trpc/init";

export const accountRouter = router({
  profile: userProcedure.query(({ ctx }) => getProfile(ctx.db, ctx.user.id)),
});
