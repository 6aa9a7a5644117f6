import { z } from "zod";
import { MSG_FIELD, zForm } from "./field-text";
import "./zod-locale";

/** The page of a table paged on the server, from 1 (`"2"` from a query string is 2). */
export const zPage = (max: number) =>
  z.coerce
    .number({ error: MSG_FIELD.page })
    .int(MSG_FIELD.page)
    .min(1, MSG_FIELD.page)
    .max(max, MSG_FIELD.page)
    .default(1);
export const ZPage = zPage(100_000);

/** One page of an admin table without filters. */
export const ZPageInput = zForm({ page: ZPage });
export type TPageInput = z.input<typeof ZPageInput>;
