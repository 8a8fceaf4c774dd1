import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import type { Project } from '../../common';
import { calendarFooter, calendarHeader, projectEvent } from './feed-document';
import { contentLine, dateTimeValue, escapeText, foldLine, nextDateValue } from './icalendar';

const octets = (text: string): number => Buffer.byteLength(text, 'utf8');

/** The physical lines of folded text, without their CRLF (the text must end in one). */
function physicalLines(text: string): string[] {
  expect(text.endsWith('\r\n')).toBe(true);
  const lines = text.slice(0, -2).split('\r\n');
  for (const line of lines) expect(line).not.toMatch(/[\r\n]/);
  return lines;
}

/** Undoes RFC 5545 folding: a CRLF followed by one space or tab joins the lines. */
const unfold = (text: string): string => text.replace(/\r\n[ \t]/g, '');

describe('escapeText', () => {
  it('escapes backslash, semicolon, comma and every kind of line break', () => {
    expect(escapeText('a\\b;c,d\ne\r\nf\rg')).toBe('a\\\\b\\;c\\,d\\ne\\nf\\ng');
  });

  it('leaves colons, quotes and emoji as they are', () => {
    expect(escapeText('Time: "12:00" 🎉')).toBe('Time: "12:00" 🎉');
  });
});

describe('foldLine', () => {
  it('leaves a line of 75 octets whole and ends it in CRLF', () => {
    const line = 'X'.repeat(75);
    expect(foldLine(line)).toBe(`${line}\r\n`);
  });

  it('folds a long ASCII line at 75 octets, continuations starting with one space', () => {
    const line = `DESCRIPTION:${'abcdefghij'.repeat(30)}`;
    const lines = physicalLines(foldLine(line));
    expect(lines.length).toBeGreaterThan(4);
    expect(lines.slice(0, -1).every((physical) => octets(physical) === 75)).toBe(true);
    expect(lines.slice(1).every((physical) => physical.startsWith(' '))).toBe(true);
    expect(unfold(foldLine(line))).toBe(`${line}\r\n`);
  });

  it('never splits a multi-byte character or a surrogate pair', () => {
    const line = `SUMMARY:${'é🎉日本'.repeat(40)}`;
    const folded = foldLine(line);
    for (const physical of physicalLines(folded)) {
      expect(octets(physical)).toBeLessThanOrEqual(75);
      // A split inside a character would leave a lone surrogate or a replacement character on decoding.
      expect(Buffer.from(physical, 'utf8').toString('utf8')).toBe(physical);
      expect(physical).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    }
    expect(unfold(folded)).toBe(`${line}\r\n`);
  });
});

describe('values', () => {
  it('writes the exclusive end of an all-day event across months, years and leap days', () => {
    expect(nextDateValue('2026-01-31')).toBe('20260201');
    expect(nextDateValue('2026-12-31')).toBe('20270101');
    expect(nextDateValue('2028-02-28')).toBe('20280229');
    expect(nextDateValue('2027-02-28')).toBe('20270301');
  });

  it('writes timestamps as UTC date-times without fractions', () => {
    expect(dateTimeValue('2026-11-27T21:24:54.123Z')).toBe('20261127T212454Z');
  });

  it('writes parameters before the value', () => {
    expect(contentLine('DTSTART', '20261127', { VALUE: 'DATE' })).toBe('DTSTART;VALUE=DATE:20261127\r\n');
  });
});

describe('a calendar with one project, read back by ical.js', () => {
  const project: Project = {
    id: 'p1',
    name: 'Launch, phase 2; "big" \\ day 🎉',
    details: `First line\nSecond line, with a comma; and a semicolon\n${'Long text '.repeat(20)}`,
    dueDate: '2026-12-31',
    category: 'marketing',
    assignedUsersList: [
      { id: 'u1', displayName: 'Ada, the first', photoURL: '' },
      { id: 'u2', displayName: 'Zoë', photoURL: '' },
    ],
    assignedUserIds: ['u1', 'u2'],
    createdBy: { id: 'u1', displayName: 'Ada, the first', photoURL: '' },
    createdAt: '2026-11-01T10:00:00.000Z',
    version: 3,
    updatedAt: '2026-11-02T11:30:15.500Z',
  };
  const context = { origin: 'https://dojo.example', calendarName: "The Dojo: Ada's projects" };
  const text = calendarHeader(context) + projectEvent(project, context) + calendarFooter();

  it('keeps every line within 75 octets and ends each with CRLF', () => {
    for (const physical of physicalLines(text)) expect(octets(physical)).toBeLessThanOrEqual(75);
  });

  it('parses back to the same values', () => {
    const calendar = new ICAL.Component(ICAL.parse(text));
    expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe(context.calendarName);
    const [vevent] = calendar.getAllSubcomponents('vevent');
    expect(vevent).toBeDefined();
    const event = new ICAL.Event(vevent);
    expect(event.uid).toBe('p1@dojo.example');
    expect(event.summary).toBe(project.name);
    expect(event.description).toBe(
      `${project.details}\n\nAssigned to: Ada, the first, Zoë\nCreated by: Ada, the first\nhttps://dojo.example/projects/p1`,
    );
    expect(event.startDate.isDate).toBe(true);
    expect(event.startDate.toString()).toBe('2026-12-31');
    expect(event.endDate.toString()).toBe('2027-01-01');
    expect(event.sequence).toBe(2);
    expect(vevent?.getFirstPropertyValue('categories')).toBe('marketing');
    expect(vevent?.getFirstPropertyValue('url')).toBe('https://dojo.example/projects/p1');
    expect(String(vevent?.getFirstPropertyValue('last-modified'))).toBe('2026-11-02T11:30:15Z');
  });
});
