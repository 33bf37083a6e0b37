import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { landingSw } from './landing-sw';

/**
 * One Kiswahili term for coarse sand everywhere (issue 27, item 14). In Kenya "kokoto" is ballast
 * (crushed stone), not sand; sellers and the staff screens and documents say "mchanga mkubwa".
 */
const COARSE = 'Mchanga mkubwa';

/** Every place Kiswahili text is written: the catalogs, the assistant's rules, the documents. */
const SOURCES = [
  'client/i18n/landing-sw.ts',
  'client/i18n/sw.ts',
  'client/i18n/staff-sw.ts',
  'shared/domain/chat.ts',
  'core/documents/document-text.ts',
];

describe('the Kiswahili word for coarse sand', () => {
  it.each(SOURCES)('%s never says kokoto', (file) => {
    expect(readFileSync(file, 'utf8')).not.toMatch(/kokoto/i);
  });

  it('the order form, the labels and the documents all say Mchanga mkubwa', () => {
    expect(landingSw.quote.sandOptions.coarse).toBe(COARSE);
    expect(landingSw.status.sand.coarse).toBe(COARSE);
    expect(readFileSync('core/documents/document-text.ts', 'utf8')).toContain(COARSE);
  });
});
