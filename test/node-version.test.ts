import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// Issue 27, item 19: one Node version, said the same in package.json, the Dockerfile and CI.
const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');

describe('the Node version', () => {
  const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;

  it('is Node 20.19 or newer in package.json (this machine and CI run Node 20.20)', () => {
    expect(engines).toBe('>=20.19');
    const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
    expect(major > 20 || (major === 20 && minor >= 19)).toBe(true);
  });

  it('is the Dockerfile’s image line for every stage', () => {
    const images = [...read('Dockerfile').matchAll(/^FROM node:(\d+)[-\w.]*/gm)].map((m) => m[1]);
    expect(images.length).toBeGreaterThanOrEqual(2);
    expect(new Set(images)).toEqual(new Set(['20']));
  });

  it('is the floor .ci/run checks before installing', () => {
    const ci = read('.ci/run');
    expect(ci).toMatch(/major < 20 \|\| \(major === 20 && minor < 19\)/);
    expect(ci.indexOf('step "Node"')).toBeLessThan(ci.indexOf('step "npm ci"'));
  });
});
