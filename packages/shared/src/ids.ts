import { z } from "zod";
import { MAX_ID } from "./constants";
import "./zod-locale";

/** What a refused id says where no form names the field (a path, a query, a hand-made request). */
export const MSG_ID_INVALID = "Diese Nummer (ID) ist ungültig. Bitte wählen Sie einen Eintrag aus der Liste.";

/**
 * A database id as it arrives from a path, a query string, a form field or JSON: `"7"` and `7` are 7;
 * `0`, `-1`, `1.5`, `"abc"`, `""` and anything over MAX_ID are refused, every refusal with `message` (the
 * forms name the field in it, e.g. "Bitte wählen Sie eine Veranstaltung.").
 */
export const zId = (message: string = MSG_ID_INVALID) =>
  z.coerce.number({ error: message }).int(message).positive(message).max(MAX_ID, message);

/** The one id schema of paths, queries and inputs. */
export const ZId = zId();

/**
 * An id, or an object carrying it (the spec's forms send whole user / package / congress objects); every
 * refusal says `message`.
 */
export const zRef = (message: string = MSG_ID_INVALID) =>
  z.union(
    [
      zId(message),
      z
        .object({ id: zId(message) }, { error: message })
        .loose()
        .transform((v) => v.id),
    ],
    { error: message },
  );
export const ZRef = zRef();
