export * from "./admin";
export * from "./advisory-lock";
export * from "./client";
export * from "./embedded";
export * from "./local-database";
export * from "./migrate";
export * as schema from "./schema";
export * from "./seed/demo-data";
export * from "./seed/seed";
