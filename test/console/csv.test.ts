import { describe, expect, it } from 'vitest';
import { csvCell, csvLine, koboText } from '../../src/modules/console/csv.js';
import { parseCsv } from './helpers.js';

describe('CSV cells of the exports', () => {
  it('quotes commas, quotes and line breaks, doubling inner quotes', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(' padded')).toBe('" padded"');
    expect(csvCell(null)).toBe('');
  });

  it('guards text a spreadsheet would run as a formula, leaves our numbers alone', () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvCell('+2348031234567')).toBe("'+2348031234567");
    expect(csvCell('-1+1')).toBe("'-1+1");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tcmd')).toBe("'\tcmd");
    expect(csvCell('-1500.50')).toBe('-1500.50');
    expect(csvCell(-3)).toBe('-3');
  });

  it('writes kobo as exact naira', () => {
    expect(koboText('150050')).toBe('1500.50');
    expect(koboText('-5')).toBe('-0.05');
    expect(koboText(123456789012345678n)).toBe('1234567890123456.78');
    expect(koboText(null)).toBe('');
  });

  it('round-trips through an RFC 4180 parser', () => {
    const cells = ['a,b', 'say "hi"', 'x\r\ny', '=1+1', '-12.00', ''];
    const [row] = parseCsv(csvLine(cells));
    expect(row).toEqual(['a,b', 'say "hi"', 'x\r\ny', "'=1+1", '-12.00', '']);
  });
});
