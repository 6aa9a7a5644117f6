import { formatInBrowser } from "./console";
import { failTestsOnConsoleOutput } from "./console-hooks";

/** The console guard (console.ts) for Vitest's browser mode, where `node:util` does not exist. */
failTestsOnConsoleOutput(formatInBrowser);
