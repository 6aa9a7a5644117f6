import pg from "pg";

/** Creates a database on the server behind `adminUrl` unless it exists; optionally as a copy of a template. */
export async function ensureDatabase(adminUrl: string, name: string, template?: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const exists = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (exists.rowCount) {
      return false;
    }
    const from = template ? ` TEMPLATE ${client.escapeIdentifier(template)}` : "";
    await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}${from}`);
    return true;
  } finally {
    await client.end();
  }
}

export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
