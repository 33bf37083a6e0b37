import type { Page } from 'playwright-core';

export interface LayoutReport {
  /** `document.documentElement.scrollWidth`: wider than the viewport means the phone zooms the page out. */
  scrollWidth: number;
  /** The widest laid-out element (a table inside a scroll box counts at its full width). */
  widest: { what: string; width: number };
  /** Action buttons a thumb cannot reach: outside the viewport and not in their own scroll box inside it. */
  unreachable: string[];
  /** Buttons, fields, tabs and menu links smaller than 44 × 44 px (a checkbox counts by its label). */
  small: string[];
  /** Chart text drawn smaller than 11 px (an SVG scaled down to its box shrinks its text with it). */
  tinyText: string[];
}

/**
 * Runs in the page. Kept as source text: the test runner's transform would wrap named helpers in a
 * `__name()` call the page does not have.
 */
const MEASURE = `(() => {
  const vw = window.innerWidth;
  const describe = (el) => {
    const id = el.id ? '#' + el.id : '';
    const cls = typeof el.className === 'string' && el.className.trim()
      ? '.' + el.className.trim().split(/\\s+/).slice(0, 2).join('.') : '';
    const name = (el.getAttribute('aria-label') || el.textContent || '').trim().replace(/\\s+/g, ' ');
    return el.tagName.toLowerCase() + id + cls + (name ? ' "' + name.slice(0, 40) + '"' : '');
  };
  const shown = (el) => {
    const r = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && style.visibility !== 'hidden' && style.display !== 'none';
  };
  // The button's own scroll box (a tab strip, a row of chips): its parent or grandparent, not a wide
  // table's wrapper far above it.
  const scrollBox = (el) => {
    for (let p = el.parentElement, depth = 0; p && depth < 2; p = p.parentElement, depth++) {
      const overflow = getComputedStyle(p).overflowX;
      if ((overflow === 'auto' || overflow === 'scroll') && p.scrollWidth > p.clientWidth) return p;
    }
    return null;
  };
  const inside = (r) => r.left >= -0.5 && r.right <= vw + 0.5;

  let widest = { what: 'body', width: 0 };
  for (const el of document.body.querySelectorAll('*')) {
    const width = el.getBoundingClientRect().width;
    if (width > widest.width) widest = { what: describe(el), width: Math.round(width) };
  }

  const unreachable = [];
  const actions = document.querySelectorAll(
    'button, a.button, [role="button"], [role="tab"], input[type="submit"], input[type="button"]');
  for (const el of actions) {
    if (!shown(el)) continue;
    const r = el.getBoundingClientRect();
    if (inside(r)) continue;
    const box = scrollBox(el);
    if (box && inside(box.getBoundingClientRect())) continue;
    unreachable.push(describe(el) + ' at ' + Math.round(r.left) + '–' + Math.round(r.right) + ' px');
  }

  const small = [];
  const controls = document.querySelectorAll(
    'button, a.button, [role="tab"], select, textarea, input:not([type="hidden"]), nav a');
  for (const el of controls) {
    if (!shown(el)) continue;
    const box = el.tagName === 'INPUT' && (el.type === 'checkbox' || el.type === 'radio')
      ? (el.closest('label') || (el.labels && el.labels[0]) || el) : el;
    const r = box.getBoundingClientRect();
    if (r.height < 43.5 || r.width < 43.5)
      small.push(describe(el) + ' ' + Math.round(r.width) + '×' + Math.round(r.height));
  }
  const tinyText = [];
  for (const svg of document.querySelectorAll('svg')) {
    const box = svg.getBoundingClientRect();
    if (!box.width) continue;
    const drawn = svg.viewBox.baseVal && svg.viewBox.baseVal.width ? svg.viewBox.baseVal.width : box.width;
    const scale = box.width / drawn;
    for (const t of svg.querySelectorAll('text')) {
      const px = parseFloat(getComputedStyle(t).fontSize) * scale;
      if (t.textContent.trim() && px < 11) tinyText.push('"' + t.textContent.trim().slice(0, 20) + '" ' + px.toFixed(1) + ' px');
    }
  }
  return { scrollWidth: document.documentElement.scrollWidth, widest, unreachable, small, tinyText };
})()`;

/** Measures the page as a phone user meets it. */
export function measureLayout(page: Page): Promise<LayoutReport> {
  return page.evaluate(MEASURE) as Promise<LayoutReport>;
}
