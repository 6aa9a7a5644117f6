import { runCli, withDatabase } from "./run";

runCli(() =>
  withDatabase(async () => {
    console.log("Migrationen angewendet.");
  }),
);
