/** Saves text as a file through the browser (CSV exports). */
export function downloadText(filename: string, text: string, type = 'text/csv;charset=utf-8') {
  // A byte-order mark lets Excel read UTF-8 names correctly.
  const blob = new Blob(['\ufeff', text], { type });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * Saves rows as a CSV file. The CSV writer (papaparse, about 7 KB brotli) loads at the first export
 * instead of with the tabs that offer one: most visits to them export nothing.
 */
export async function downloadCsv(filename: string, header: string[], rows: unknown[][]): Promise<void> {
  const { toCsv } = await import('../../shared/domain/csv');
  downloadText(filename, toCsv(header, rows));
}
