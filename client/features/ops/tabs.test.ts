import { describe, expect, it } from 'vitest';
import { openTab, tabsFor } from './tabs';

describe('the workspace tab an address opens', () => {
  it.each([
    ['ADMIN', undefined, '', 'overview'],
    ['OPS', undefined, '', 'stock'],
    ['ADMIN', 'orders', '', 'orders'],
    ['ADMIN', undefined, '#finance', 'finance'],
    ['OPS', 'fleet', '', 'fleet'],
    // The path wins over the hash.
    ['ADMIN', 'trips', '#orders', 'trips'],
    // A tab the role does not have, or a mistyped one: none (the page goes back to /ops).
    ['OPS', 'orders', '', undefined],
    ['ADMIN', 'nothing', '', undefined],
    // A hash that names no tab of the role: the role's first tab.
    ['OPS', undefined, '#orders', 'stock'],
  ] as const)('%s at %s %s: %s', (role, tab, hash, id) => {
    expect(openTab(role, tab, hash)?.id).toBe(id);
  });

  it('gives OPS stock, costs and fleet only, in the workspace order', () => {
    expect(tabsFor('OPS').map((t) => t.id)).toEqual(['stock', 'costs', 'fleet']);
    expect(tabsFor('ADMIN')).toHaveLength(12);
  });
});
