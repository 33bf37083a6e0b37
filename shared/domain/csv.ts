import Papa from 'papaparse';

/**
 * Spreadsheet programs run cells that start with = + - @ (or a tab / carriage return) as formulas.
 * Such cells are prefixed with an apostrophe so an exported note can never execute.
 */
export function neutraliseCell(value: unknown): string | number {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? value : '';
  const text = String(value);
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/**
 * Cells quoted whenever they hold any list separator a spreadsheet may split on (Excel in many locales
 * uses `;`), a quote, a tab or a line break — not only the comma papaparse quotes by default.
 */
const NEEDS_QUOTES = /[,;"\t\r\n]/;

/** CSV text with a header row; quoting by papaparse, formula cells neutralised. */
export function toCsv(header: string[], rows: unknown[][]): string {
  return Papa.unparse(
    { fields: header, data: rows.map((r) => r.map(neutraliseCell)) },
    { newline: '\r\n', quotes: (value: unknown) => typeof value === 'string' && NEEDS_QUOTES.test(value) },
  );
}
