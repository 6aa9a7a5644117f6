import { defineConfig } from "drizzle-kit";

// Only `drizzle-kit generate` uses this file; it diffs the schema against the committed snapshots.
export default defineConfig({
  dialect: "postgresql",
  schema: "./src/schema.ts",
  out: "./drizzle",
});
