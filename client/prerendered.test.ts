import { describe, expect, it } from 'vitest';
import { PRERENDERED_ID, type Prerendered, prerenderedScript, readPrerendered } from './prerendered';

/** What the browser would parse out of the script element: its text up to the first `</script`. */
function scriptText(html: string): string {
  const open = html.indexOf('>') + 1;
  return html.slice(open, html.toLowerCase().indexOf('</script', open));
}

/** A document holding that script element. */
const docWith = (text: string | null) =>
  ({
    getElementById: (id: string) => (id === PRERENDERED_ID && text !== null ? { textContent: text } : null),
  }) as unknown as Document;

const pricing = (note: string) => ({ pricing: { note } }) as unknown as Prerendered;

describe('prerenderedScript', () => {
  it.each([
    ['plain text', 'River sand from Juja'],
    ['a closing script tag', '</script><script>alert(1)</script>'],
    ['a closing tag in capitals', '</SCRIPT>'],
    ['an HTML comment opener', '<!-- <script>'],
    ['line and paragraph separators', 'a\u2028b\u2029c'],
    ['quotes and ampersands', `"'&amp;`],
  ])('carries %s intact, inside one element', (_what, note) => {
    const html = prerenderedScript(pricing(note));
    expect(html.startsWith(`<script type="application/json" id="${PRERENDERED_ID}">`)).toBe(true);
    expect(html.endsWith('</script>')).toBe(true);
    const text = scriptText(html);
    // nothing in the value ends the element early or opens another
    expect(text).not.toMatch(/<\/?script|<!--/i);
    expect(text).not.toMatch(/[\u2028\u2029]/);
    expect(readPrerendered(docWith(text))).toEqual(pricing(note));
  });
});

describe('readPrerendered', () => {
  it.each([
    ['no document (the server)', undefined],
    ['no element', docWith(null)],
    ['an empty element', docWith('')],
    ['broken JSON', docWith('{"pricing":')],
  ])('answers null for %s', (_what, doc) => {
    expect(readPrerendered(doc)).toBeNull();
  });
});
