import { renderCatalogue } from "./render-catalogue";

// Entry point of jsx-transform.int.test.ts: run under tsx and as an esbuild bundle, printed as JSON.
process.stdout.write(JSON.stringify(await renderCatalogue()));
