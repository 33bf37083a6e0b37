import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { survivesLostQueries } from './lost-queries';

const dir = mkdtempSync(join(tmpdir(), 'mchanga-lost-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cut = () =>
  Object.assign(new Error('write CONNECTION_CLOSED 127.0.0.1:5432'), { code: 'CONNECTION_CLOSED' });
const wrapped = () =>
  Object.assign(new Error('Failed query: select 1'), {
    cause: Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
  });

/** A process that installs the rule, leaves one rejection unhandled, and says whether it lived on. */
function runWith(rejection: string) {
  const file = join(dir, `case-${Math.random().toString(36).slice(2)}.ts`);
  writeFileSync(
    file,
    `import { keepRunningOnLostQueries } from ${JSON.stringify(resolve(__dirname, 'lost-queries.ts'))};
     keepRunningOnLostQueries({ warn: (obj, msg) => console.log('WARN', msg) });
     void Promise.reject(${rejection});
     setTimeout(() => console.log('still serving'), 100);`,
  );
  return spawnSync(process.execPath, ['--import', 'tsx', file], { encoding: 'utf8', timeout: 30_000 });
}

describe('a query rejected after its connection was cut, with nobody waiting for it', () => {
  it.each([
    ['the driver’s CONNECTION_CLOSED', cut(), true],
    ['a query error whose cause is a terminated backend (57P01)', wrapped(), true],
    ['a bug', new Error('undefined is not a function'), false],
    ['a constraint violation', Object.assign(new Error('duplicate key'), { code: '23505' }), false],
  ])('%s: survived is %s', (_name, reason, survives) => {
    expect(survivesLostQueries(reason, { warn() {} })).toBe(survives);
  });

  it('is logged and the process keeps serving', () => {
    const run = runWith(
      `Object.assign(new Error('write CONNECTION_CLOSED 127.0.0.1:5432'), { code: 'CONNECTION_CLOSED' })`,
    );
    expect(run.stdout).toContain('WARN a database query failed after its connection was cut');
    expect(run.stdout).toContain('still serving');
    expect(run.status).toBe(0);
  });

  it('while any other unhandled rejection still ends the process, as without the rule', () => {
    const run = runWith(`new Error('a real bug')`);
    expect(run.stdout).not.toContain('still serving');
    expect(run.stderr).toContain('a real bug');
    expect(run.status).not.toBe(0);
  });
});
