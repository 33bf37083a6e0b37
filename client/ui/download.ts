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
