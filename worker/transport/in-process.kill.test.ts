import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'mchanga-jobs-kill-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function runFixture(mode: 'seed' | 'resume', marks: string) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/fixtures/embedded-jobs-process.ts', join(dir, 'pglite'), marks, mode],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr!.on('data', (d: Buffer) => {
    out += d.toString();
  });
  return { child, output: () => out };
}

describe('embedded jobs survive kill -9 (issue 25)', () => {
  it('runs every queued, delayed, retrying and interrupted job after the restart, each to completion once', async () => {
    const marks = join(dir, 'marks.txt');
    writeFileSync(marks, '');
    const seed = runFixture('seed', marks);
    await new Promise<void>((resolve, reject) => {
      seed.child.stdout!.on('data', () => seed.output().includes('ready') && resolve());
      seed.child.on('exit', (code) => reject(new Error(`seed exited ${code}:\n${seed.output()}`)));
    });
    seed.child.kill('SIGKILL');
    await new Promise((r) => seed.child.once('exit', r));

    const before = readFileSync(marks, 'utf8').trim().split('\n');
    // At the kill: the slow job was running, each retrying job had failed once, nothing had finished.
    expect(before.filter((l) => l.startsWith('done'))).toEqual([]);
    expect(before.filter((l) => l.startsWith('fail')).length).toBe(5);
    expect(before).toContain('start running 1 seed');

    const resume = runFixture('resume', marks);
    const code = await new Promise((r) => resume.child.once('exit', r));
    expect(code, resume.output()).toBe(0);

    const lines = readFileSync(marks, 'utf8').trim().split('\n');
    const done = lines.filter((l) => l.startsWith('done')).sort();
    expect(done).toEqual(
      [
        'done running 1 resume',
        ...[1, 2, 3, 4, 5].map((i) => `done delayed-${i} 1 resume`),
        // The retry keeps its attempt count across the restart.
        ...[1, 2, 3, 4, 5].map((i) => `done retrying-${i} 2 resume`),
      ].sort(),
    );
    const states = JSON.parse(resume.output().trim().split('\n').at(-1)!) as { id: string; state: string }[];
    expect(states.map((s) => s.state)).toEqual(Array(11).fill('completed'));
  }, 90_000);
});
