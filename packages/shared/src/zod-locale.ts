import { z } from "zod";
import { de } from "zod/locales";

// Validation messages the schemas do not spell out themselves are German too.
z.config(de());
