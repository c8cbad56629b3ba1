import { describe, expect, it } from 'vitest';
import { csvCell, CsvError, csvRow, parseCsv } from './csv.js';

describe('csvCell', () => {
  it.each([
    ['plain', ',', 'plain'],
    ['a,b', ',', '"a,b"'],
    ['a,b', ';', 'a,b'],
    ['a;b', ';', '"a;b"'],
    ['say "hi"', ',', '"say ""hi"""'],
    ['two\nlines', ',', '"two\nlines"'],
    ['=HYPERLINK("x")', ',', `"'=HYPERLINK(""x"")"`],
    ['+359888', ',', "'+359888"],
    ['@sum', ',', "'@sum"],
    ['-12.50', ',', '-12.50'],
    ['-12,50', ';', '-12,50'],
    [42, ',', '42'],
  ])('%j with %j is %j', (value, separator, cell) => {
    expect(csvCell(value, separator)).toBe(cell);
  });

  it('ends a row with CRLF', () => {
    expect(csvRow(['a', 1, 'b c'], ';')).toBe('a;1;b c\r\n');
  });
});

describe('parseCsv', () => {
  it('reads quoted cells with separators, quotes and line breaks, CRLF and LF rows, and drops a byte order mark', () => {
    expect(parseCsv('\uFEFFa,b,c\r\n"x, y","say ""hi""","two\nlines"\n1,,3')).toEqual([
      ['a', 'b', 'c'],
      ['x, y', 'say "hi"', 'two\nlines'],
      ['1', '', '3'],
    ]);
    expect(parseCsv('a;b\r\n', ';')).toEqual([['a', 'b']]);
  });

  it('reads back what csvRow writes', () => {
    const rows = [['plain', 'a,b', 'say "hi"', 'two\r\nlines', '']];
    expect(parseCsv(rows.map((row) => csvRow(row)).join(''))).toEqual(rows);
  });

  it('refuses a quote left open', () => {
    expect(() => parseCsv('a,"b\nc')).toThrow(CsvError);
  });
});
