import { seedDemo } from "../seed/seed";
import { runCli, withDatabase } from "./run";

if (process.env.NODE_ENV === "production") {
  console.error("Die Demo-Daten werden in Produktion nie eingespielt (NODE_ENV=production).");
  process.exit(1);
}

runCli(() =>
  withDatabase(async (db) => {
    await seedDemo(db);
    console.log("Demo-Daten eingespielt.");
  }),
);
