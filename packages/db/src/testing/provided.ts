declare module "vitest" {
  export interface ProvidedContext {
    /** maintenance database URL of the test PostgreSQL, set by global-setup.ts */
    pgAdminUrl: string;
  }
}

export {};
