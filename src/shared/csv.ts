/**
 * A cell of a CSV file as RFC 4180 quotes it (when it holds the separator, a quote or a line break),
 * and never a formula: a spreadsheet runs text that begins with =, +, -, @ or a tab (a customer's
 * name could), so such text, unless it is a number, is written after an apostrophe.
 */
export function csvCell(value: string | number, separator = ','): string {
  const text = String(value);
  const safe = /^[=+\-@\t\r]/.test(text) && !/^-?\d+([.,]\d+)?$/.test(text) ? `'${text}` : text;
  return safe.includes(separator) || /["\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** A row of cells, ended by CRLF as RFC 4180 has it. */
export const csvRow = (cells: ReadonlyArray<string | number>, separator = ','): string => `${cells.map((cell) => csvCell(cell, separator)).join(separator)}\r\n`;

/**
 * The rows of a CSV text as RFC 4180 writes them: cells in double quotes may hold the separator,
 * line breaks and doubled quotes; rows end with CRLF or LF; a byte order mark at the start is
 * dropped. A quote left open is an error, as a file cut short is.
 */
export function parseCsv(text: string, separator = ','): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let index = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (; index < text.length; index++) {
    const char = text[index]!;
    if (quoted) {
      if (char !== '"') cell += char;
      else if (text[index + 1] === '"') {
        cell += '"';
        index++;
      } else quoted = false;
    } else if (char === '"' && cell === '') quoted = true;
    else if (char === separator) {
      row.push(cell);
      cell = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[index + 1] === '\n') index++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += char;
  }
  if (quoted) throw new CsvError('A quoted cell is not closed: the file may be cut short.');
  if (cell !== '' || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

export class CsvError extends Error {}
