import { z } from "zod";
import "./zod-locale";

/** The page of a table paged on the server, from 1 (`"2"` from a query string is 2). */
export const ZPage = z.coerce.number().int().min(1).max(100_000).default(1);

/** One page of an admin table without filters. */
export const ZPageInput = z.object({ page: ZPage });
export type TPageInput = z.input<typeof ZPageInput>;
