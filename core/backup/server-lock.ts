import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The embedded server's pid in DATA_DIR/server.pid: PGlite's data directory must have one process, so
 * `npm run backup` and `npm run restore` refuse to open it while the server that owns it runs.
 */
export function serverPidFile(dataDir: string) {
  return join(dataDir, 'server.pid');
}

export function writeServerPid(dataDir: string) {
  writeFileSync(serverPidFile(dataDir), `${process.pid}\n`);
}

export function removeServerPid(dataDir: string) {
  const file = serverPidFile(dataDir);
  if (existsSync(file) && readFileSync(file, 'utf8').trim() === String(process.pid))
    rmSync(file, { force: true });
}

/** The pid of a live server on this data directory (a stale file from a killed one is ignored). */
export function runningServerPid(dataDir: string): number | undefined {
  const file = serverPidFile(dataDir);
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, 'utf8').trim());
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return undefined;
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return undefined;
  }
}
