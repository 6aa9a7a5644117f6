import { format } from "node:util";
import { failTestsOnConsoleOutput } from "./console-hooks";

/** Vitest setup file (`test.setupFiles` in every package's config, Node): the console guard (console.ts). */
failTestsOnConsoleOutput(format);
