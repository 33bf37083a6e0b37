import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { freePort } from './redis-server';
import { until } from './until';

const PGBOUNCER = '/usr/sbin/pgbouncer';

/**
 * A private PgBouncer (Debian's package) in front of the PostgreSQL at `url`, on a port of its own with a
 * generated configuration: transaction pooling, as production would run it. Returns the pooled URL.
 */
export async function privatePgbouncer(url: string, options: { poolSize?: number } = {}) {
  const target = new URL(url);
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'mchanga-pgbouncer-'));
  const user = decodeURIComponent(target.username || 'postgres');
  writeFileSync(join(dir, 'userlist.txt'), `"${user}" "${decodeURIComponent(target.password)}"\n`);
  writeFileSync(
    join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=${target.hostname} port=${target.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      // The local test server trusts 127.0.0.1; production sets auth_type and auth_file properly.
      'auth_type = trust',
      `auth_file = ${join(dir, 'userlist.txt')}`,
      'pool_mode = transaction',
      `default_pool_size = ${options.poolSize ?? 5}`,
      'max_client_conn = 200',
      `logfile = ${join(dir, 'pgbouncer.log')}`,
      `pidfile = ${join(dir, 'pgbouncer.pid')}`,
      `admin_users = ${user}`,
      '',
    ].join('\n'),
  );
  // PgBouncer will not run as root: as root (CI containers) it drops to the unprivileged `nobody`.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    chmodSync(dir, 0o755);
    chownSync(dir, 65534, 65534);
    for (const file of readdirSync(dir)) chownSync(join(dir, file), 65534, 65534);
  }
  const child: ChildProcess = spawn(
    PGBOUNCER,
    [...(asRoot ? ['-u', 'nobody'] : []), join(dir, 'pgbouncer.ini')],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.on('error', (err) => {
    stderr += `${err.message} (apt-get install -y pgbouncer)`;
  });
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  await until(
    async () => {
      if (child.exitCode !== null || stderr.includes('ENOENT'))
        throw new Error(`pgbouncer exited (${child.exitCode}): ${stderr}`);
      return new Promise<boolean>((resolve) => {
        const socket = connect(port, '127.0.0.1', () => {
          socket.end();
          resolve(true);
        });
        socket.on('error', () => resolve(false));
      });
    },
    10_000,
    'pgbouncer to listen',
  );
  const pooled = new URL(url);
  pooled.port = String(port);
  return {
    /** `url` with PgBouncer's port: the same database through the pooler. */
    url: (database: string) => {
      const u = new URL(pooled);
      u.pathname = `/${database}`;
      return u.toString();
    },
    /** For a failure's message: PgBouncer's pools, clients and servers (its admin console), and its log's tail. */
    async describe() {
      const adminConsole = postgres(new URL('/pgbouncer', pooled).toString(), {
        max: 1,
        onnotice: () => {},
        fetch_types: false,
      });
      const show = async (what: string) =>
        JSON.stringify(
          await adminConsole
            .unsafe(`show ${what}`)
            .simple()
            .catch((e: Error) => e.message),
        );
      try {
        const state = `pools ${await show('pools')}\nclients ${await show('clients')}\nservers ${await show('servers')}`;
        const log = readFileSync(join(dir, 'pgbouncer.log'), 'utf8').split('\n').slice(-40).join('\n');
        return `${state}\nits log:\n${log}`;
      } finally {
        await adminConsole.end({ timeout: 1 });
      }
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await until(
          async () => child.exitCode !== null || child.signalCode !== null,
          10_000,
          'pgbouncer to stop',
        );
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
