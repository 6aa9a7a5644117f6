import { z } from "zod";
import { MAX_ID } from "./constants";
import "./zod-locale";

/**
 * A database id as it arrives from a path, a query string, a form field or JSON: `"7"` and `7` are 7;
 * `0`, `-1`, `1.5`, `"abc"`, `""` and anything over MAX_ID are refused. With `message`, every refusal says
 * that (the forms that name the field in their error).
 */
export const zId = (message?: string) =>
  z.coerce
    .number(message === undefined ? undefined : { error: message })
    .int(message)
    .positive(message)
    .max(MAX_ID, message);

/** The one id schema of paths, queries and inputs. */
export const ZId = zId();

/** An id, or an object carrying it (the spec's forms send whole user / package / congress objects). */
export const ZRef = z.union([
  ZId,
  z
    .object({ id: ZId })
    .loose()
    .transform((v) => v.id),
]);
