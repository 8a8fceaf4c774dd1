/**
 * A small iCalendar (RFC 5545) writer: just what the calendar feed needs, with the rules real clients are
 * strict about (docs/decisions/068-private-calendar-feed.md). Lines end in CRLF; a line longer than 75
 * octets is folded (CRLF and one space) between whole characters, never inside a UTF-8 sequence or a
 * surrogate pair; TEXT values escape backslash, semicolon, comma and newlines.
 */

const CRLF = '\r\n';
/** RFC 5545 section 3.1: lines SHOULD NOT be longer than 75 octets, excluding the line break. */
const MAX_LINE_OCTETS = 75;

/** A TEXT value (RFC 5545 section 3.3.11): `\` `;` `,` escaped, every line break written as `\n`. */
export function escapeText(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');
}

const octetsOf = (codePoint: number): number =>
  codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;

/**
 * One content line, folded at 75 octets with CRLF: the first line holds up to 75 octets, each continuation
 * a space and up to 74 more. Splits fall between code points only.
 */
export function foldLine(line: string): string {
  let folded = '';
  let octets = 0;
  for (const character of line) {
    const size = octetsOf(character.codePointAt(0) ?? 0);
    if (octets + size > MAX_LINE_OCTETS) {
      folded += `${CRLF} `;
      octets = 1;
    }
    folded += character;
    octets += size;
  }
  return folded + CRLF;
}

/** A property's content line: `NAME;PARAM=value:value`, folded. The value must already be escaped. */
export function contentLine(name: string, value: string, params: Record<string, string> = {}): string {
  const paramText = Object.entries(params)
    .map(([param, paramValue]) => `;${param}=${paramValue}`)
    .join('');
  return foldLine(`${name}${paramText}:${value}`);
}

/** A calendar day `YYYY-MM-DD` as a DATE value, `YYYYMMDD`. */
export const dateValue = (day: string): string => day.replace(/-/g, '');

/** The day after a calendar day `YYYY-MM-DD`, as a DATE value (an all-day event's exclusive end). */
export function nextDateValue(day: string): string {
  const [year = 0, month = 1, date = 1] = day.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, date + 1)).toISOString().slice(0, 10).replace(/-/g, '');
}

/** An ISO 8601 UTC timestamp as a DATE-TIME value in UTC, `YYYYMMDDTHHMMSSZ`. */
export function dateTimeValue(iso: string): string {
  return `${new Date(iso).toISOString().slice(0, 19).replace(/[-:]/g, '')}Z`;
}
