import { describe, expect, it } from 'vitest';
import { localeDateFormatter, localeOfRequest, neutralizeFormula } from './export-writers';

describe('neutralizeFormula', () => {
  it('prefixes an apostrophe to a cell a spreadsheet would compute, and only to those', () => {
    for (const cell of ['=1+1', '+1', '-1', '@SUM(A1)', '\t=1', '\r=1']) {
      expect(neutralizeFormula(cell)).toBe(`'${cell}`);
    }
    for (const cell of ['Plan', '', ' =1', '1-2', "'=1", 'a@b']) expect(neutralizeFormula(cell)).toBe(cell);
  });
});

describe('localeOfRequest', () => {
  it('takes the first tag the runtime knows, en-US without one', () => {
    expect(localeOfRequest('de-DE,de;q=0.9,en;q=0.8')).toBe('de-DE');
    expect(localeOfRequest('*, fr-FR;q=0.5')).toBe('fr-FR');
    expect(localeOfRequest('not a tag,en-GB')).toBe('en-GB');
    expect(localeOfRequest(undefined)).toBe('en-US');
    expect(localeOfRequest('')).toBe('en-US');
  });
});

describe('localeDateFormatter', () => {
  it('writes a day and a timestamp by their UTC day, in the locale', () => {
    const us = localeDateFormatter('en-US');
    expect(us('2031-01-02')).toBe('1/2/2031');
    expect(us('2031-01-02T23:59:59.000Z')).toBe('1/2/2031');
    expect(us(null)).toBe('');
    expect(localeDateFormatter('de-DE')('2031-01-02')).toBe('2.1.2031');
  });
});
