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

  it('guards full-width and other compatibility forms of the formula leads (issue 41)', () => {
    expect(csvCell('＝1+1')).toBe("'＝1+1");
    expect(csvCell('＋2348031234567')).toBe("'＋2348031234567");
    expect(csvCell('－1+1')).toBe("'－1+1");
    expect(csvCell('＠SUM(A1)')).toBe("'＠SUM(A1)");
    expect(csvCell('﹦1+1')).toBe("'﹦1+1");
    // Every character whose NFKC form starts with a lead is guarded at a cell's start; no other is (the compatibility
    // forms are all in the Basic Multilingual Plane).
    const leads = new Set(['=', '+', '-', '@']);
    const missed: string[] = [];
    for (let c = 0x21; c <= 0xffff; c++) {
      if (c === 0x27 || (c >= 0xd800 && c <= 0xdfff)) continue;
      const ch = String.fromCharCode(c);
      const isLead = leads.has(ch.normalize('NFKC').charAt(0));
      if (csvCell(`${ch}x`).startsWith("'") !== isLead || csvCell(`a;${ch}x`).includes("'") !== isLead) missed.push(c.toString(16));
    }
    expect(missed).toEqual([]);
  });

  it('guards a formula after a separator inside the cell, where a spreadsheet splitting on it starts a cell (issue 41)', () => {
    expect(csvCell('a;=1+1')).toBe("a;'=1+1");
    expect(csvCell('b,@SUM(1)')).toBe(`"b,'@SUM(1)"`);
    expect(csvCell('c|=x')).toBe("c|'=x");
    expect(csvCell('d\t=x')).toBe("d\t'=x");
    expect(csvCell('e; ＝x')).toBe("e; '＝x");
    expect(csvCell('f;"=x')).toBe(`"f;""'=x"`);
    expect(csvCell('g\n+x')).toBe(`"g\n'+x"`);
    expect(csvCell('=a;-b;c')).toBe("'=a;'-b;c");
    // Leads that do not start a cell stay as they are.
    expect(csvCell('Ikeja, Lagos')).toBe('"Ikeja, Lagos"');
    expect(csvCell('2024-05-01T10:00:00.000Z')).toBe('2024-05-01T10:00:00.000Z');
    expect(csvCell('a=b;c+d')).toBe('a=b;c+d');
  });

  it('no cell of a line read with ; | or tab as the separator starts a formula (issue 41)', () => {
    const hostile = ['x;=HYPERLINK("http://evil";"go")', 'a|@SUM(1)', 'b\t-1+2', 'c, +1', '＝1', 'd;\t＠x'];
    const line = csvLine(['plain', ...hostile, '-12.00']);
    for (const sep of [';', '|', '\t', ',']) {
      for (const cell of line.replace(/\r\n$/, '').split(sep)) {
        const start = cell.replace(/^[\s"]+/, '');
        expect(start.normalize('NFKC')).not.toMatch(/^[=+@]|^-(?!12\.00$)/);
      }
    }
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
