import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { stripVTControlCharacters } from "node:util";

/** A command started as a terminal starts it: in a process group of its own, its output collected. */
export interface Command {
  child: ChildProcess;
  output(): string;
  /** resolves with the exit code (or the signal's name) */
  exited: Promise<number | string>;
}

export function startCommand(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Command {
  let output = "";
  const child = spawn(command, args, { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | string>((done) => {
    child.on("exit", (code, signal) => done(code ?? signal ?? "?"));
  });
  // colours stripped, so that tests can look for plain text
  return { child, output: () => stripVTControlCharacters(output), exited };
}

/** Ctrl-C in a terminal: SIGINT to the whole foreground process group. */
export function pressCtrlC(command: Command): void {
  if (command.child.pid) {
    process.kill(-command.child.pid, "SIGINT");
  }
}

export interface ProcessInfo {
  pid: number;
  ppid: number;
  state: string;
  command: string;
}

function processTable(): ProcessInfo[] {
  const table: ProcessInfo[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) {
      continue;
    }
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // "pid (comm) state ppid ...": comm may contain spaces and parentheses
      const afterComm = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const command = readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " ").trim();
      table.push({ pid: Number(entry), ppid: Number(afterComm[1]), state: afterComm[0] ?? "?", command });
    } catch {
      // ended while we looked
    }
  }
  return table;
}

/** `pid` and every process it started, however deep (detached process groups included). */
export function processTree(pid: number): ProcessInfo[] {
  const table = processTable();
  const found = table.filter((p) => p.pid === pid);
  let parents = new Set([pid]);
  while (parents.size > 0) {
    const children = table.filter((p) => parents.has(p.ppid));
    found.push(...children);
    parents = new Set(children.map((p) => p.pid));
  }
  return found;
}

/** The processes among `processes` that still run (a zombie has ended; only its parent has not looked yet). */
export function stillRunning(processes: ProcessInfo[]): ProcessInfo[] {
  const alive = new Map(processTable().map((p) => [p.pid, p]));
  return processes.filter((p) => {
    const now = alive.get(p.pid);
    return now !== undefined && now.state !== "Z" && now.command === p.command;
  });
}

export async function portIsFree(port: number): Promise<boolean> {
  return new Promise((done) => {
    const server = createServer();
    server.once("error", () => done(false));
    server.listen(port, "127.0.0.1", () => server.close(() => done(true)));
  });
}
